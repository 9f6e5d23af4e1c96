import CommandLineSupport
import MyNotesKit

/// `mynotes list`: every note of the account, newest first.
struct ListCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "List all notes, newest first.", options: options)
    private static let options = ConnectionOptions.specs + [NotesPrinter.spec]

    var connection: ConnectionOptions
    var printer: NotesPrinter

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        connection = try ConnectionOptions(parsing: arguments)
        printer = try NotesPrinter(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let client = try connection.makeClient(in: context)
        let notes = try await calling(in: context.language) { () async throws(NotesClientError) in
            try await client.query()
        }
        printer.print(notes, client: client, in: context)
    }
}
