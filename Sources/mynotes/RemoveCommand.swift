import MyNotesKit

/// `mynotes rm ID`: removes a note.
struct RemoveCommand: ConnectionCommand {
    static let name = "rm"
    static let summary = "Remove a note."
    static let arguments = "ID"
    static let options = ConnectionOptions.specs

    var id: Int
    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "missing ID" : "expected one ID")
        }
        id = try NoteArguments.noteID(arguments.positionals[0])
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let client = try connection.makeClient(in: context)
        try await calling { () async throws(NotesClientError) in try await client.remove(id: id) }
        context.print("Removed note \(id).")
    }
}
