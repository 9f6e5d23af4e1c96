import Storage

/// `--database sqlite:PATH`, shared by every command that opens the store.
enum DatabaseOption {
    static let name = "--database"
    static let environmentVariable = "MYNOTES_DATABASE"
    static let defaultValue = "sqlite:./mynotes.sqlite"
    static let help = """
          --database sqlite:PATH  The database (env MYNOTES_DATABASE; default \(defaultValue)).
        """

    static func location(
        _ arguments: ParsedArguments, environment: [String: String]
    ) throws(UsageError) -> StoreLocation {
        let text = arguments.values[name] ?? environment[environmentVariable] ?? defaultValue
        do {
            return try StoreLocation(parsing: text)
        } catch {
            throw UsageError("invalid value '\(text)' for '\(name)': expected sqlite:PATH")
        }
    }

    static func open(_ location: StoreLocation) throws(CommandFailure) -> any NoteStore {
        do {
            return try location.open()
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
