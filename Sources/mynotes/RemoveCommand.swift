import CommandLineSupport
import MyNotesKit

/// `mynotes rm ID...`: removes notes, each on its own: one that cannot be removed does
/// not keep the others.
struct RemoveCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "rm", abstract: "Remove notes.", arguments: [.repeating("ID")], options: options)
    private static let options = ConnectionOptions.specs + [LocalCopy.offlineSpec]

    var ids: [ReplicaNoteID]
    var offline: Bool
    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        offline = arguments.has("--offline")
        ids = []
        for text in arguments.arguments("ID") {
            ids.append(
                offline ? try LocalCopy.noteID(text) : .server(try NoteArguments.noteID(text)))
        }
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        if offline {
            try await LocalCopy.existing(connection, in: context).remove(ids, in: context)
            return
        }
        let client = try connection.makeClient(in: context)
        try await Self.removeEach(ids, in: context) { target throws(CommandFailure) in
            let id = target.serverID!
            try await calling(in: context.language, server: client.server) {
                () async throws(NotesClientError) in
                try await client.remove(id: id)
            }
            return "Removed note \(id)."
        }
    }

    /// Removes each note on its own, printing what `remove` says of it; one failure alone
    /// is the command's, several are counted.
    static func removeEach(
        _ ids: [ReplicaNoteID], in context: CommandContext,
        _ remove: (ReplicaNoteID) async throws(CommandFailure) -> String
    ) async throws(CommandFailure) {
        var failed = 0
        for id in ids {
            do {
                context.print(try await remove(id))
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
