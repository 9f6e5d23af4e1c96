import CommandLineSupport
import MyNotesDomain
import Storage

/// `mynotes-server migrate --from LOCATION --to LOCATION [--force]`: copies everything
/// from one database to another (SQLite to PostgreSQL, or back), then verifies counts
/// and a checksum.
struct MigrateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "migrate", abstract: "Copy every account, session and note to another database.",
        discussion: """
            Copies accounts (with their password hashes), tokens and sessions, and notes with
            their IDs, dates, versions and order, from --from to --to: sqlite:PATH to
            postgres://USER@HOST:PORT/DB to move from one machine to many, or back. Shows its
            progress, then reads both databases again and compares their counts and a
            checksum of every row. Refuses a target that holds data unless --force, which
            deletes it first. Stop the servers writing to the source while it runs.
            """,
        options: [
            .value(
                "--from", "LOCATION", "The database to copy from (sqlite:PATH or postgres://...)."),
            .value(
                "--to", "LOCATION", "The database to copy into (postgres://... or sqlite:PATH)."),
            .flag("--force", "Delete what the target holds before copying."),
        ])

    let source: StoreLocation
    let target: StoreLocation
    let overwrite: StoreCopy.Overwrite

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        source = try Self.location(arguments, "--from")
        target = try Self.location(arguments, "--to")
        overwrite = arguments.has("--force") ? .replace : .refuse
    }

    func validate() throws(UsageError) {
        guard source != target else {
            throw UsageError("options '--from' and '--to' must name different databases")
        }
    }

    private static func location(_ arguments: ParsedArguments, _ name: String) throws(UsageError)
        -> StoreLocation
    {
        guard let text = arguments.value(name) else { throw UsageError("missing option '\(name)'") }
        do {
            return try StoreLocation(parsing: text)
        } catch {
            throw UsageError("option '\(name)' must be sqlite:PATH or postgres://…, not '\(text)'")
        }
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let copy = StoreCopy(from: source, to: target, overwrite: overwrite)
        let summary: StoreCopy.Summary
        do {
            summary = try await copy.run { progress in context.printError(progress) }
        } catch .targetNotEmpty(let what) {
            throw CommandFailure("\(what): it is not empty; --force deletes it first")
        } catch {
            throw CommandFailure(error.description)
        }
        context.print(
            "copied \(summary.accounts) accounts, \(summary.tokens) tokens and \(summary.notes) notes; "
                + "counts and checksum \(summary.checksum) verified")
    }
}
