import CommandLineSupport
import Foundation
import MyNotesKit

/// `mynotes search WORDS`: the notes that contain every word, ignoring case; over REST
/// the server searches (`q`).
struct SearchCommand: Command {
    static let configuration = CommandConfiguration(
        name: "search", abstract: "List the notes that contain all the words, ignoring case.",
        discussion: discussion, arguments: [.repeating("WORDS")], options: options)
    private static let discussion = """
        With --api rest the server searches (its 'q' parameter, CJK included); with the
        legacy API all notes are fetched and searched here.
        """
    private static let options =
        ConnectionOptions.specs + [LocalCopy.offlineSpec, NotesPrinter.spec]

    var words: [String]
    var offline: Bool
    var connection: ConnectionOptions
    var printer: NotesPrinter

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        words = NoteSearch.words(arguments.arguments("WORDS"))
        offline = arguments.has("--offline")
        connection = try ConnectionOptions(parsing: arguments)
        printer = try NotesPrinter(parsing: arguments)
    }

    func validate() throws(UsageError) {
        try connection.validate()
        if words.isEmpty { throw UsageError("missing WORDS") }
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        if offline {
            let copy = try LocalCopy.existing(connection, in: context)
            await copy.search(words, printer: printer, in: context)
            return
        }
        let client = try connection.makeClient(in: context)
        let found = try await calling(in: context.language, server: client.server) {
            () async throws(NotesClientError) in
            try await client.search(words)
        }
        // On a terminal, the table marks where the words matched.
        if printer.format == .table, let marks = SearchMarks.forOutput(words: words, in: context) {
            let table = NoteTable(notes: found).render(width: context.outputWidth)
            context.write(marks.mark(table: table))
        } else {
            printer.print(found, client: client, in: context)
        }
    }
}
