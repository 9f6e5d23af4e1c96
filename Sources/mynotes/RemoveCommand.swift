import CommandLineSupport
import MyNotesKit

/// `mynotes rm ID...`: removes notes, each on its own: one that cannot be removed does
/// not keep the others.
struct RemoveCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "rm", abstract: "Remove notes.", arguments: [.repeating("ID")], options: options)
    private static let options = ConnectionOptions.specs

    var ids: [Int]
    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        ids = []
        for text in arguments.arguments("ID") { ids.append(try NoteArguments.noteID(text)) }
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let client = try connection.makeClient(in: context)
        var failed = 0
        for id in ids {
            do {
                try await calling(in: context.language, server: client.server) {
                    () async throws(NotesClientError) in
                    try await client.remove(id: id)
                }
                context.print("Removed note \(id).")
            } catch {
                if ids.count == 1 { throw error }
                context.printError("note \(id): \(error.message)")
                failed += 1
            }
        }
        if failed > 0 {
            throw CommandFailure(
                "\(failed) of \(ids.count) notes were not removed.")
        }
    }
}
