import CommandLineSupport
import Storage

/// `mynotes-server restore --from FILE`: puts a backup in place of the database.
struct RestoreCommand: Command {
    static let configuration = CommandConfiguration(
        name: "restore", abstract: "Replace the database with a backup (server stopped).",
        discussion: """
            Checks FILE (integrity_check), then replaces the contents of the database with
            it, creating the database if missing. Refuses while another process, such as a
            running server, has the database open: stop the server first.
            """,
        options: [
            DatabaseOption.spec,
            .value("--from", "FILE", "The backup to restore."),
        ])

    let path: String
    let source: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = try DatabaseOption.sqlitePath(arguments, for: "restore")
        guard let source = arguments.value("--from"), !source.isEmpty else {
            throw UsageError("option '--from' is required: the backup to restore")
        }
        self.source = source
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        do {
            try SQLiteBackup.restore(from: source, to: path)
            context.print("Restored \(path) from \(source)")
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
