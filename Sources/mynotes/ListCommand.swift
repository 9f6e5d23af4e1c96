import CommandLineSupport
import MyNotesKit

/// `mynotes list`: the account's notes, newest first; `-n N` the newest N only.
struct ListCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "List the notes, newest first.", options: options)
    private static let options =
        [
            OptionSpec.value(
                "--limit", "N", "Only the newest N notes (over REST only those are fetched).",
                short: "-n"),
            NotesPrinter.spec,
        ] + ConnectionOptions.specs + [LocalCopy.offlineSpec]

    var limit: Int?
    var offline: Bool
    var connection: ConnectionOptions
    var printer: NotesPrinter

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        limit = try arguments.integer("--limit", in: 1...1_000_000)
        offline = arguments.has("--offline")
        connection = try ConnectionOptions(parsing: arguments)
        printer = try NotesPrinter(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        if offline {
            let copy = try LocalCopy.existing(connection, in: context)
            await copy.list(limit: limit, printer: printer, in: context)
            return
        }
        let client = try connection.makeClient(in: context)
        let limit = self.limit
        let notes = try await calling(in: context.language, server: client.server) {
            () async throws(NotesClientError) in
            if let limit { return try await client.query(limit: limit) }
            return try await client.query()
        }
        printer.print(notes, client: client, in: context)
    }
}
