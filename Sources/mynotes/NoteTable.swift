import CommandLineSupport
import MyNotesKit

/// Notes as aligned columns `ID  DATE  CONTENT`, the content cut to the width available.
struct NoteTable {
    var notes: [Note]
    /// The IDs as shown, when not the notes' own (`new-1` for a note not synced yet).
    var ids: [String]? = nil

    /// The table; on a terminal (`escaping`) the contents' control characters are
    /// shown as escapes, and the heading in the `style`'s weight.
    func render(width: Int?, escaping: Bool = false, style: TerminalStyle = .init(isEnabled: false))
        -> String
    {
        guard !notes.isEmpty else { return "No notes.\n" }
        let ids = self.ids ?? notes.map { String($0.id) }
        let dates = notes.map { $0.date.description }
        let idWidth = max(2, ids.map(\.count).max()!)
        let dateWidth = max(4, dates.map(\.count).max()!)
        let contentWidth = width.map { max(8, $0 - idWidth - dateWidth - 4) }
        var lines = [
            style.apply(
                .heading,
                to: "ID".leftPadded(to: idWidth) + "  " + "DATE".padded(toWidth: dateWidth)
                    + "  CONTENT")
        ]
        for (index, note) in notes.enumerated() {
            // On a terminal control characters show as escapes; elsewhere as spaces.
            var content =
                escaping
                ? TerminalText.escaped(note.content, keeping: .lineBreaks).singleLine
                : note.content.singleLine
            if let contentWidth { content = content.truncated(toWidth: contentWidth) }
            let line =
                ids[index].leftPadded(to: idWidth) + "  " + dates[index].padded(toWidth: dateWidth)
                + "  " + content
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
