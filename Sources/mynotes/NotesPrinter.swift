import CommandLineSupport
import MyNotesKit

/// Prints notes in the format `--format` chose.
struct NotesPrinter {
    var format: OutputFormat

    static let spec = OptionSpec.value(
        "--format", "table|json|xml", "How to print notes (default table).", short: "-f")

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        format = try arguments.choice("--format", as: OutputFormat.self) ?? .table
    }

    func print(_ notes: [Note], client: StyledNotesClient, in context: CommandContext) {
        print(notes, email: client.email, in: context)
    }

    /// `ids` are shown in the table instead of the notes' own (a local copy's `new-1`).
    func print(
        _ notes: [Note], ids: [String]? = nil, email: String, in context: CommandContext
    ) {
        switch format {
        case .table:
            Pager.write(
                NoteTable(notes: notes, ids: ids).render(
                    width: context.outputWidth, escaping: context.standardOutputIsTerminal,
                    style: context.outputStyle), in: context)
        case .json: context.write(NotesFile.json(notes))
        case .xml:
            context.write(NotesFile.xml(notes, userID: email))
        }
    }
}
