/// Why the store could not do what was asked. The legacy protocol answers all of
/// these but ``quotaExceeded`` and ``duplicateEmail`` with ResultCode -3.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    /// The database could not be opened or migrated.
    case cannotOpen(location: String, reason: String)
    /// The location names no database kind this server can use.
    case unsupportedLocation(String)
    /// An account with that email already exists.
    case duplicateEmail(String)
    /// The account already holds as many notes as its quota allows.
    case quotaExceeded(limit: Int)
    /// The store has been closed.
    case closed
    /// The database failed (I/O error, corrupt file, database down).
    case failed(String)

    public var description: String {
        switch self {
        case .cannotOpen(let location, let reason): "cannot open database \(location): \(reason)"
        case .unsupportedLocation(let location):
            "unsupported database '\(location)': use sqlite:PATH"
        case .duplicateEmail(let email): "an account with email \(email) already exists"
        case .quotaExceeded(let limit): "the account already holds \(limit) notes"
        case .closed: "the store is closed"
        case .failed(let reason): "database failure: \(reason)"
        }
    }
}

extension StoreError {
    init(_ error: SQLiteError) {
        self = .failed(error.description)
    }
}
