import MyNotesDomain

/// A failed SQLite call, as SQLite reported it: the primary and extended result codes
/// (connections run with extended codes on), SQLite's message, and the SQL it ran.
///
/// ```swift
/// catch StoreError.database(let error) where error.extendedCode == SQLiteError.constraintUnique {
///     print(error.message)  // "UNIQUE constraint failed: accounts.email"
/// }
/// ```
public struct SQLiteError: DatabaseFailure, Hashable {
    /// `SQLITE_IOERR`: the disk failed.
    public static let ioError: Int32 = 10
    /// `SQLITE_READONLY`: the database, or a file beside it, cannot be written.
    public static let readOnly: Int32 = 8
    /// `SQLITE_CONSTRAINT`.
    public static let constraint: Int32 = 19
    /// `SQLITE_CONSTRAINT_UNIQUE`: a `UNIQUE` index refused a row.
    public static let constraintUnique: Int32 = 2067
    /// `SQLITE_CORRUPT`.
    public static let corrupt: Int32 = 11

    /// The extended result code, e.g. 2067 (`SQLITE_CONSTRAINT_UNIQUE`).
    public let extendedCode: Int32
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?
    /// Whether the store, not SQLite, failed: SQLite returned a row the store cannot read
    /// (``corruptRow(_:sql:)``), which its callers are told as ``StoreError/corruptRow(_:)``.
    let isCorruptRow: Bool

    public init(extendedCode: Int32, message: String, sql: String?) {
        self.init(extendedCode: extendedCode, message: message, sql: sql, isCorruptRow: false)
    }

    private init(extendedCode: Int32, message: String, sql: String?, isCorruptRow: Bool) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.isCorruptRow = isCorruptRow
    }

    /// A row that `sql` returned and the store cannot read, `message` saying which and
    /// why. It travels as an `SQLiteError` through the code that reads rows, whose
    /// failures are SQLite's; its code is `SQLITE_CORRUPT` for whatever looks at codes.
    static func corruptRow(_ message: String, sql: String?) -> SQLiteError {
        SQLiteError(extendedCode: corrupt, message: message, sql: sql, isCorruptRow: true)
    }

    /// The primary result code, e.g. 19 (`SQLITE_CONSTRAINT`): the extended code's low byte.
    public var code: Int32 { extendedCode & 0xFF }

    /// `SQLite error 1811`: the extended code, which SQLite's documentation lists.
    public var reportedCode: String { "SQLite error \(extendedCode)" }

    public var description: String {
        let codes =
            extendedCode == code ? "\(code)" : "\(code), extended \(extendedCode)"
        if let sql { return "SQLite error \(codes): \(message) (in: \(sql))" }
        return "SQLite error \(codes): \(message)"
    }
}
