import CommandLineSupport
import MyNotesDomain
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
    static func perform<Value, Failure: Error & CustomStringConvertible>(
        on location: StoreLocation, _ body: (any NoteStore) async throws(Failure) -> Value
    ) async throws(CommandFailure) -> Value {
        let store = try DatabaseOption.open(location)
        defer { store.close() }
        do {
            return try await body(store)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
