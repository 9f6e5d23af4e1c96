import CommandLineSupport
import MyNotesDomain
import SQLiteStore

/// `mynotes-server backup --to FILE`: a consistent copy of a live SQLite database.
struct BackupCommand: Command {
    static let configuration = CommandConfiguration(
        name: "backup", abstract: "Copy the database while the server runs.",
        discussion: """
            Copies a SQLite database, live or not, into a new FILE: one consistent snapshot,
            taken without stopping the server's writes. The copy is checked before it is
            given its name, so FILE is always whole. PostgreSQL: use pg_dump (see
            docs/OPERATIONS.md).
            """,
        options: BackupArguments.options(file: "--to", "The copy to create; it must not exist."))

    let files: BackupArguments

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        files = try BackupArguments(
            arguments, command: "backup", file: "--to", meaning: "the file to create")
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        do {
            let report = try SQLiteBackup.backUp(database: files.database, to: files.file)
            let milliseconds =
                report.duration.components.seconds * 1_000
                + report.duration.components.attoseconds / 1_000_000_000_000_000
            context.print(
                "Backed up \(files.database) to \(files.file): \(report.pages) pages, "
                    + "\(report.bytes) bytes, \(milliseconds) ms")
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
