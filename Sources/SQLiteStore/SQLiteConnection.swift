import CSQLite
import MyNotesDomain

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe (hence `@unchecked`): the store hands each connection to one
/// thread at a time (SQLite's multi-thread mode), which is why the handle can be
/// opened `NOMUTEX`.
final class SQLiteConnection: @unchecked Sendable {
    /// How a connection is opened.
    enum Mode {
        case readWrite
        case readOnly
    }

    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// Statements handed out since the last ``finishStatements()``.
    private var inUse: [SQLiteStatement] = []

    init(path: String, mode: Mode) throws(SQLiteError) {
        var handle: OpaquePointer?
        let access =
            mode == .readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let code = sqlite3_open_v2(path, &handle, access | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            // The open call's own code is primary; the handle knows the extended one.
            let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
            sqlite3_close_v2(handle)
            throw SQLiteError(extendedCode: extended, message: message, sql: nil)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        try check(sqlite3_busy_timeout(handle, 5_000), sql: nil)
        try registerFunctions()
    }

    deinit {
        // Statements first: a connection with live statements does not close.
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that returns no rows, possibly several statements.
    func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(extendedCode: code, message: message, sql: sql)
        }
    }

    /// A prepared statement for `sql`, compiled once per connection and reused.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            inUse.append(cached)
            return cached
        }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        statements[sql] = statement
        inUse.append(statement)
        return statement
    }

    /// Resets every statement used since the last call. A statement left on a row
    /// keeps its read transaction open, which would pin an old snapshot and stop
    /// WAL checkpoints, so the store calls this whenever it is done with a connection.
    func finishStatements() {
        for statement in inUse { statement.reset() }
        inUse.removeAll(keepingCapacity: true)
    }

    /// The rowid of the last successful insert on this connection.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open. SQLite ends one by itself on some failures (a
    /// full disk, an I/O error), which a savepoint cannot then undo.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Whether SQLite opened the database read-only: asked for read-write, it settles
    /// for reading when the file or its file system cannot be written.
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func check(_ code: Int32, sql: String?) throws(SQLiteError) {
        guard code == SQLITE_OK else {
            throw SQLiteError(extendedCode: code, message: lastErrorMessage, sql: sql)
        }
    }
}
