import CommandLineSupport
import MyNotesDomain
import SQLiteStore

/// `mynotes-server restore --from FILE`: puts a backup in place of the database.
struct RestoreCommand: Command {
    static let configuration = CommandConfiguration(
        name: "restore", abstract: "Replace the database with a backup (server stopped).",
        discussion: """
            Checks FILE (integrity_check), then replaces the contents of the database with
            it, creating the database if missing. Refuses while another process, such as a
            running server, has the database open: stop the server first.
            """,
        options: BackupArguments.options(file: "--from", "The backup to restore."))

    let files: BackupArguments

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        files = try BackupArguments(
            arguments, command: "restore", file: "--from", meaning: "the backup to restore")
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        do {
            try SQLiteBackup.restore(from: files.file, to: files.database)
            context.print("Restored \(files.database) from \(files.file)")
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
