import CommandLineSupport
import Storage

/// `--database sqlite:PATH`, shared by every command that opens the store.
enum DatabaseOption {
    static let name = "--database"
    static let environmentVariable = "MYNOTES_DATABASE"
    static let defaultValue = "sqlite:./mynotes.sqlite"
    static let spec = OptionSpec.value(
        name, "sqlite:PATH", "The database (env MYNOTES_DATABASE; default \(defaultValue)).",
        short: "-d")

    static func location(_ arguments: ParsedArguments) throws(UsageError) -> StoreLocation {
        let text =
            arguments.value(name) ?? arguments.environment[environmentVariable] ?? defaultValue
        do {
            return try StoreLocation(parsing: text)
        } catch {
            throw UsageError("option '\(name)' must be sqlite:PATH, not '\(text)'")
        }
    }

    /// The file of a `sqlite:` location, for the commands that work on the file itself.
    static func sqlitePath(_ arguments: ParsedArguments, for command: String) throws(UsageError)
        -> String
    {
        let location = try location(arguments)
        if case .sqlite(let path) = location { return path }
        throw UsageError("'\(command)' works on sqlite: databases; see docs/OPERATIONS.md")
    }

    static func open(_ location: StoreLocation) throws(CommandFailure) -> any NoteStore {
        do {
            return try location.open()
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
