import BoundedExecution
import CommandLineSupport
import MyNotesService
import Storage

/// What every `accounts` command that names one account takes: `EMAIL` and `--database`.
struct AccountArguments {
    static let arguments = [ArgumentSpec("EMAIL")]
    static let options = [DatabaseOption.spec]

    let email: String
    let location: StoreLocation

    init(_ arguments: ParsedArguments) throws(UsageError) {
        email = arguments.argument("EMAIL")
        location = try DatabaseOption.location(arguments)
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
