import CommandLineSupport
import Storage

/// `--database sqlite:PATH` or a PostgreSQL location (`postgres://USER@HOST:PORT/DB`,
/// `postgresql://…`, libpq's `key=value` pairs), shared by every command that opens the store.
enum DatabaseOption {
    static let name = "--database"
    static let environmentVariable = "MYNOTES_DATABASE"
    static let defaultValue = "sqlite:./mynotes.sqlite"
    static let spec = OptionSpec.value(
        name, "sqlite:PATH|postgres://…",
        "The database: sqlite:PATH, or postgres://USER@HOST:PORT/DB, postgresql://… or libpq "
            + "key=value pairs, the password from PGPASSWORD or ~/.pgpass "
            + "(env MYNOTES_DATABASE; default \(defaultValue)).",
        short: "-d")

    static func location(_ arguments: ParsedArguments) throws(UsageError) -> StoreLocation {
        let text =
            arguments.value(name) ?? arguments.environment[environmentVariable] ?? defaultValue
        do {
            return try StoreLocation(parsing: text)
        } catch {
            throw UsageError("option '\(name)' must be sqlite:PATH or postgres://…, not '\(text)'")
        }
    }

    static func open(
        _ location: StoreLocation, limits: StoreLimits = StoreLimits()
    ) throws(CommandFailure) -> any NoteStore {
        do {
            return try location.open(limits: limits)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
