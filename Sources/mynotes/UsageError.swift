/// A command line that cannot run as written; `mynotes` exits with status 2.
struct UsageError: Error, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
