import Foundation

/// How `mynotes search` matches: every word, anywhere in the content, ignoring case.
enum NoteSearch {
    static func matches(_ content: String, allOf words: [String]) -> Bool {
        words.allSatisfy { content.range(of: $0, options: [.caseInsensitive]) != nil }
    }

    /// The words of the command line: each argument split at white space.
    static func words(_ arguments: [String]) -> [String] {
        arguments.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
    }
}
