import MyNotesService
import Storage

/// What every `accounts` command that names one account takes: `EMAIL` and `--database`.
struct AccountArguments {
    let email: String
    let location: StoreLocation

    init(_ arguments: [String], environment: [String: String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, options: [DatabaseOption.name], flags: [])
        email = try parsed.single("EMAIL")
        location = try DatabaseOption.location(parsed, environment: environment)
    }

    /// The help of an `accounts` command: its usage line, what it does, the options.
    static func help(_ command: String, argument: String = " EMAIL", _ summary: String) -> String {
        """
        USAGE: mynotes-server accounts \(command)\(argument) [--database sqlite:PATH]

        \(summary)

        OPTIONS:
        \(DatabaseOption.help)
          -h, --help              Show this help.
        """
    }

    /// Runs an account operation on the store, reporting its failure as the command's.
    static func perform<Value>(
        on location: StoreLocation, _ body: (any NoteStore) throws(AccountError) -> Value
    ) throws(CommandFailure) -> Value {
        let store = try DatabaseOption.open(location)
        defer { store.close() }
        do {
            return try body(store)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
