import CSQLite
import MyNotesDomain
import MyNotesProtocol
import StorageSupport

/// A compiled SQL statement. Finalized when released.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection
    let sql: String

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(
            connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw SQLiteError(extendedCode: code, message: connection.lastErrorMessage, sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Clears the last run's state and bindings so the statement can run again.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds values to the `?` parameters, in order.
    @discardableResult
    func bind(_ values: SQLiteValue...) throws(SQLiteError) -> SQLiteStatement {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 =
                switch value {
                case .integer(let integer): sqlite3_bind_int64(handle, index, integer)
                case .text(let text):
                    sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
                case .blob(let bytes):
                    bytes.withUnsafeBytes {
                        sqlite3_bind_blob(
                            handle, index, $0.baseAddress, Int32($0.count), csqlite_transient())
                    }
                case .null: sqlite3_bind_null(handle, index)
                }
            guard code == SQLITE_OK else {
                throw SQLiteError(
                    extendedCode: code, message: connection.lastErrorMessage, sql: sql)
            }
        }
        return self
    }

    /// Advances to the next row: `true` when there is one, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = connection.lastErrorMessage
            sqlite3_reset(handle)
            throw SQLiteError(extendedCode: code, message: message, sql: sql)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteError) {
        while try step() {}
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(storedText: UnsafeBufferPointer(start: pointer, count: count))
    }

    /// A text column read as a note's date, parsed from SQLite's own bytes (no `String`
    /// made per row); `nil` when it holds no date (`NULL`, or text of a hand-edited row).
    func noteDate(_ column: Int32) -> NoteDate? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return NoteDate(utf8: UnsafeBufferPointer(start: pointer, count: count))
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null
}
