import CommandLineSupport
import Foundation

/// Marks where `mynotes search`'s words matched in a table's content column, in bold
/// yellow, when standard output is a terminal that takes colour: not when it is a pipe or
/// a file, nor under `NO_COLOR` (https://no-color.org) or `TERM=dumb`. Words match as the
/// server matches them: upper-cased then lower-cased (`strasse` marks `Straße`), as plain
/// substrings.
///
/// ```swift
/// SearchMarks(words: ["milk"]).mark("Buy MILK")  // "Buy \u{1B}[1;33mMILK\u{1B}[0m"
/// ```
struct SearchMarks {
    static let start = "\u{1B}[1;33m"
    static let end = "\u{1B}[0m"

    let words: [[Unicode.Scalar]]

    init(words: [String]) {
        self.words = words.map { Array($0.uppercased().lowercased().unicodeScalars) }
            .filter { !$0.isEmpty }
    }

    /// Marks for this terminal, or `nil` when output takes no colour.
    static func forOutput(words: [String], in context: CommandContext) -> SearchMarks? {
        guard isatty(STDOUT_FILENO) == 1, context.environment["NO_COLOR", default: ""].isEmpty,
            context.environment["TERM"] != "dumb"
        else { return nil }
        return SearchMarks(words: words)
    }

    /// `table` (``NoteTable``'s rendering) with the matches in its CONTENT column marked.
    func mark(table: String) -> String {
        var lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.first, let column = header.range(of: "CONTENT") else {
            return table
        }
        let offset = header.distance(from: header.startIndex, to: column.lowerBound)
        for index in lines.indices.dropFirst() where lines[index].count > offset {
            let split = lines[index].index(lines[index].startIndex, offsetBy: offset)
            lines[index] = String(lines[index][..<split]) + mark(String(lines[index][split...]))
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with every match of every word marked.
    func mark(_ text: String) -> String {
        let characters = Array(text)
        var folded: [Unicode.Scalar] = []
        var origin: [Int] = []
        for (index, character) in characters.enumerated() {
            for scalar in String(character).uppercased().lowercased().unicodeScalars {
                folded.append(scalar)
                origin.append(index)
            }
        }
        var marked = [Bool](repeating: false, count: characters.count)
        for word in words where word.count <= folded.count {
            for start in 0...(folded.count - word.count)
            where folded[start..<(start + word.count)].elementsEqual(word) {
                for index in origin[start]...origin[start + word.count - 1] { marked[index] = true }
            }
        }
        var result = ""
        for (index, character) in characters.enumerated() {
            if marked[index], index == 0 || !marked[index - 1] { result += Self.start }
            result.append(character)
            if marked[index], index == characters.count - 1 || !marked[index + 1] {
                result += Self.end
            }
        }
        return result
    }
}
