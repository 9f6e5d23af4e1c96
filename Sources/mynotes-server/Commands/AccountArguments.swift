import BoundedExecution
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
    /// The store is async; a command has no task, so the operation runs as one on a
    /// thread of its own while the command waits.
    static func perform<Value: Sendable, Failure: Error & CustomStringConvertible>(
        on location: StoreLocation,
        _ body: @escaping @Sendable (any NoteStore) async throws(Failure) -> Value
    ) throws(CommandFailure) -> Value {
        let store = try DatabaseOption.open(location)
        let worker = BoundedExecutor(
            name: "command", limits: ExecutorLimits(threads: 1, queueLimit: 1))
        defer {
            worker.close()
            store.close()
        }
        do {
            return try worker.wait { () async throws(Failure) in try await body(store) }
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
