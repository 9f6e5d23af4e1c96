import MyNotesDomain

/// A failed PostgreSQL call, as the server (or libpq) reported it: the five-character
/// SQLSTATE, the message, and the SQL that ran.
///
/// ```swift
/// catch StoreError.postgreSQL(let error) where error.sqlState == PostgreSQLError.uniqueViolation {
///     print(error.message)  // duplicate key value violates unique constraint "…"
/// }
/// ```
public struct PostgreSQLError: DatabaseFailure, Hashable {
    /// `23505`: a unique index refused a row.
    public static let uniqueViolation = "23505"
    /// `08006`: the connection failed. libpq reports no SQLSTATE for a broken connection, so
    /// the store gives it this one.
    public static let connectionFailure = "08006"
    /// `08001`: the client could not establish a connection.
    public static let cannotConnect = "08001"
    /// `40P01`: PostgreSQL ended one of two transactions waiting on each other's locks.
    /// Nothing of the failed one happened, so it may run again.
    public static let deadlockDetected = "40P01"
    /// `40001`: PostgreSQL could not order the transaction with a concurrent one and
    /// rolled it back; it may run again.
    public static let serializationFailure = "40001"
    /// `55000`: the schema is newer than this server knows (a migration it lacks).
    public static let objectNotInPrerequisiteState = "55000"

    /// The SQLSTATE, e.g. `23505`.
    public let sqlState: String
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?
    /// Whether the store, not PostgreSQL, failed: PostgreSQL returned a row the store
    /// cannot read (``corruptRow(_:sql:)``), which its callers are told as
    /// ``StoreError/corruptRow(_:)``.
    let isCorruptRow: Bool

    public init(sqlState: String, message: String, sql: String?) {
        self.init(sqlState: sqlState, message: message, sql: sql, isCorruptRow: false)
    }

    private init(sqlState: String, message: String, sql: String?, isCorruptRow: Bool) {
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
        self.isCorruptRow = isCorruptRow
    }

    /// A row that `sql` returned and the store cannot read, `message` saying which and
    /// why. It travels as a `PostgreSQLError` through the code that reads rows, whose
    /// failures are PostgreSQL's; its SQLSTATE is `XX001` (data corrupted), and it is
    /// neither a lost connection nor a conflict, so no read runs again for it.
    static func corruptRow(_ message: String, sql: String?) -> PostgreSQLError {
        PostgreSQLError(sqlState: "XX001", message: message, sql: sql, isCorruptRow: true)
    }

    /// The SQLSTATE's class, its first two characters: `08` is a connection exception,
    /// `57` an operator intervention such as a server shutting down.
    public var sqlStateClass: String { String(sqlState.prefix(2)) }

    /// `SQLSTATE 23505`, as PostgreSQL's appendix of error codes lists it.
    public var reportedCode: String { "SQLSTATE \(sqlState)" }

    /// Whether the connection, not the statement, failed: the server went away, shut down
    /// or cannot be reached. Another connection may succeed.
    public var isConnectionLost: Bool {
        sqlStateClass == "08" || sqlState == "57P01" || sqlState == "57P02"
            || sqlState == "57P03"
    }

    /// Whether PostgreSQL rolled the transaction back for a conflict with another one (a
    /// deadlock, a serialization failure): nothing of it happened, and running it again
    /// once the other has finished succeeds.
    public var isConflict: Bool {
        sqlState == Self.deadlockDetected || sqlState == Self.serializationFailure
    }

    public var description: String {
        if let sql { return "PostgreSQL error \(sqlState): \(message) (in: \(sql))" }
        return "PostgreSQL error \(sqlState): \(message)"
    }
}
