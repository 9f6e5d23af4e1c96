/// Why the store could not do what was asked. The legacy protocol answers all of
/// these but ``quotaExceeded`` and ``duplicateEmail`` with ResultCode -3.
///
/// ```swift
/// do { _ = try store.createAccount(email: email, tokenHash: hash) }
/// catch .duplicateEmail { print("taken") }
/// catch .database(let error) { print(error.extendedCode, error.message) }
/// ```
public enum StoreError: Error, CustomStringConvertible, Sendable {
    /// The database could not be opened or migrated.
    case cannotOpen(location: String, cause: SQLiteError)
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
    /// The database failed (I/O error, corrupt file, a constraint): SQLite's own report,
    /// extended result code and all.
    case database(SQLiteError)

    public var description: String {
        switch self {
        case .cannotOpen(let location, let cause):
            "cannot open database \(location): \(cause.message) (SQLite error \(cause.extendedCode))"
        case .unsupportedLocation(let location):
            "unsupported database '\(location)': use sqlite:PATH"
        case .duplicateEmail(let email): "an account with email \(email) already exists"
        case .quotaExceeded(.notes(let limit)): "the account already holds \(limit) notes"
        case .quotaExceeded(.bytes(let limit)):
            "the account's notes would take more than \(limit) bytes"
        case .closed: "the store is closed"
        case .overloaded(let wait): "the store is overloaded; retry after \(wait)"
        case .database(let error): "database failure: \(error)"
        }
    }
}
