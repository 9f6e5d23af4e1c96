import CSQLite

extension SQLiteConnection {
    /// Registers the SQL functions the store's queries use: `mynotes_fold(text)`, the
    /// Swift ``TextFolding`` (SQLite's own `lower` and `LIKE` fold ASCII only).
    func registerFunctions() throws(SQLiteError) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        try check(
            sqlite3_create_function_v2(
                handle, "mynotes_fold", 1, flags, nil, foldFunction, nil, nil, nil),
            sql: nil)
    }
}

/// `mynotes_fold(text)`: NULL stays NULL; anything else is read as UTF-8 text.
private let foldFunction:
    @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, count, values in
        guard count == 1, let value = values?[0], let bytes = sqlite3_value_text(value) else {
            sqlite3_result_null(context)
            return
        }
        let length = Int(sqlite3_value_bytes(value))
        let text = String(
            decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        let folded = TextFolding.fold(text)
        var utf8 = folded
        utf8.withUTF8 { buffer in
            sqlite3_result_text64(
                context,
                buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                sqlite3_uint64(buffer.count), csqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }
