/// Why the store could not do what was asked. The legacy protocol answers all of
/// these but ``quotaExceeded`` and ``duplicateEmail`` with ResultCode -3.
///
/// ```swift
/// do { _ = try store.createAccount(email: email, tokenHash: hash) }
/// catch .duplicateEmail { print("taken") }
/// catch .database(let failure) { print(failure.reportedCode, failure.message) }
/// ```
public enum StoreError: Error, CustomStringConvertible, Sendable {
    /// The database could not be opened or migrated.
    case cannotOpen(location: String, cause: any DatabaseFailure)
    /// A database server could not be reached or migrated.
    case cannotConnect(location: String, cause: any DatabaseFailure)
    /// The database holds migrations this server does not know: it was made by a newer
    /// version, whose schema this one must not write to.
    case newerSchema(location: String, unknownMigrations: [String])
    /// The location names no database kind this server can use.
    case unsupportedLocation(String)
    /// An account with that email already exists.
    case duplicateEmail(String)
    /// The write would take the account past this limit of its quota; nothing was written.
    case quotaExceeded(NoteQuota.Limit)
    /// The store has been closed.
    case closed
    /// Too much work is waiting already; nothing was done. Retry after this long.
    case overloaded(retryAfter: Duration)
    /// The database failed (an I/O error, a corrupt file, a constraint, a lost
    /// connection): the engine's own report, with the code it looks the failure up by
    /// (SQLite's extended result code, PostgreSQL's SQLSTATE).
    case database(any DatabaseFailure)
    /// A row the database returned but the store cannot read: a hand-edited or damaged
    /// database holds, say, text that is no date where a note's date belongs. Says which
    /// row and what it holds; the row stays as it is, for an operator to mend.
    case corruptRow(String)

    public var description: String {
        switch self {
        case .cannotOpen(let location, let cause):
            "cannot open database \(location): \(cause.message) (\(cause.reportedCode))"
        case .cannotConnect(let location, let cause):
            "cannot use database \(location): \(cause.message) (\(cause.reportedCode))"
        case .newerSchema(let location, let unknown):
            "database \(location) has a newer schema (migrations \(unknown.joined(separator: ", "))"
                + " are unknown to this server): upgrade the server"
        case .unsupportedLocation(let location):
            "unsupported database '\(location)': use sqlite:PATH or postgres://USER@HOST:PORT/DB"
        case .duplicateEmail(let email): "an account with email \(email) already exists"
        case .quotaExceeded(.notes(let limit)): "the account already holds \(limit) notes"
        case .quotaExceeded(.bytes(let limit)):
            "the account's notes would take more than \(limit) bytes"
        case .closed: "the store is closed"
        case .overloaded(let wait): "the store is overloaded; retry after \(wait)"
        case .database(let error): "database failure: \(error)"
        case .corruptRow(let problem): "corrupt row: \(problem)"
        }
    }
}
