import CommandLineSupport
import MyNotesKit

/// `mynotes rm ID`: removes a note.
struct RemoveCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "rm", abstract: "Remove a note.", arguments: [ArgumentSpec("ID")], options: options)
    private static let options = ConnectionOptions.specs

    var id: Int
    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = try NoteArguments.noteID(arguments.argument("ID"))
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let client = try connection.makeClient(in: context)
        try await calling(in: context.language) { () async throws(NotesClientError) in
            try await client.remove(id: id)
        }
        context.print("Removed note \(id).")
    }
}
