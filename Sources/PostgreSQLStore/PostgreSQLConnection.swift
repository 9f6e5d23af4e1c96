internal import CLibPQ
import Foundation
import MyNotesDomain

#if canImport(Glibc)
    import Glibc
#endif

/// One libpq connection with its prepared statements: each SQL text is prepared once per
/// connection (`PQprepare`) and then only executed (`PQexecPrepared`).
///
/// Not thread-safe (hence `@unchecked`): the pool lends a connection to one thread at a
/// time. Every call blocks that thread, which is why they run on the store's own executor.
final class PostgreSQLConnection: @unchecked Sendable {
    /// Internal for the change listener (PostgreSQLConnection+Notifications).
    let handle: OpaquePointer
    /// Statement names by SQL text.
    private var prepared: [String: String] = [:]

    /// Connects with libpq's own rules: `conninfo` is a `postgres://` or `postgresql://`
    /// URI or `key=value` pairs, and whatever it leaves out comes from the `PG*` variables,
    /// the password from `PGPASSWORD` or `~/.pgpass`.
    init(conninfo: String) throws(PostgreSQLError) {
        let keywords = ["dbname", "fallback_application_name"]
        let values = [conninfo, "mynotes-server"]
        let connection = Self.withCStrings(keywords) { keywords in
            Self.withCStrings(values) { values in
                // expand_dbname = 1: the first dbname's value is itself a connection string.
                PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let connection else {
            throw PostgreSQLError(
                sqlState: PostgreSQLError.cannotConnect, message: "out of memory", sql: nil)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(String(cString: PQerrorMessage(connection)))
            PQfinish(connection)
            throw PostgreSQLError(
                sqlState: PostgreSQLError.cannotConnect, message: message, sql: nil)
        }
        handle = connection
        // Notices (`IF NOT EXISTS … skipping`) are not the server's log lines to print.
        _ = PQsetNoticeProcessor(handle, { _, _ in }, nil)
        guard PQsetClientEncoding(handle, "UTF8") == 0 else {
            // No PQfinish here: `handle` is set, so a throw from now on runs `deinit`, which
            // finishes it (finishing it here too freed it twice: heap corruption in CI).
            let message = lastErrorMessage
            throw PostgreSQLError(
                sqlState: PostgreSQLError.cannotConnect, message: message, sql: nil)
        }
        // A write is acknowledged only once its commit is flushed to disk, whatever the
        // server's or the role's default. No JIT: every statement here takes milliseconds,
        // and a plan whose estimate crosses `jit_above_cost` (a search's, with its walks
        // turned off or its changes since the index overestimated) spent 20 – 40 ms
        // compiling before it ran (in the search benchmark, the million-note account's p99
        // for queries of 3+ characters was 130 ms with JIT, 24 ms without).
        try execute("SET synchronous_commit TO on; SET jit TO off")
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is usable. Reads what the server sent while the connection
    /// sat idle: a server that shut down or restarted has closed it, and this notices
    /// before a statement is sent on it.
    var isUsable: Bool {
        guard PQstatus(handle) == CONNECTION_OK else { return false }
        guard PQconsumeInput(handle) == 1 else { return false }
        return isReusable
    }

    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Whether the connection can go back to the pool: open, in no transaction, and out
    /// of pipeline mode.
    var isReusable: Bool {
        PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE
            && PQpipelineStatus(handle) == PQ_PIPELINE_OFF
    }

    /// Whether a transaction is open (perhaps aborted by a failure) outside pipeline mode:
    /// one that `ROLLBACK` ends.
    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return PQstatus(handle) == CONNECTION_OK && PQpipelineStatus(handle) == PQ_PIPELINE_OFF
            && (status == PQTRANS_INTRANS || status == PQTRANS_INERROR)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<Value>(
        _ body: () throws(PostgreSQLError) -> Value
    ) throws(PostgreSQLError) -> Value {
        try execute("BEGIN")
        do throws(PostgreSQLError) {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if !isBroken { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs SQL without parameters, possibly several statements (migrations, `BEGIN`).
    func execute(_ sql: String) throws(PostgreSQLError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs `sql` with `parameters` (`$1`, `$2`, …), preparing it first on this connection
    /// if it never ran here.
    func query(_ sql: String, _ parameters: PostgreSQLValue...) throws(PostgreSQLError)
        -> PostgreSQLRows
    {
        try query(sql, parameters: parameters)
    }

    func query(_ sql: String, parameters: [PostgreSQLValue]) throws(PostgreSQLError)
        -> PostgreSQLRows
    {
        let name = try statementName(for: sql)
        let result = try Self.withParameters(parameters, sql: sql) {
            count, values, lengths, formats in
            PQexecPrepared(handle, name, count, values, lengths, formats, 0)
        }
        do throws(PostgreSQLError) {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return PostgreSQLRows(result!)
    }

    /// One statement of a ``pipeline(_:)``.
    struct Statement {
        let sql: String
        let parameters: [PostgreSQLValue]
        /// Given the rows as they arrive (libpq's single-row mode: a result of one row at
        /// a time), instead of all of them at the end: the caller works on a row while
        /// PostgreSQL reads the next (a page of long notes out of TOAST). The pipeline's
        /// result for the statement then holds no row.
        var eachRow: ((PostgreSQLRows) -> Void)? = nil
    }

    /// Sends every statement at once and then reads their results, in order: one round
    /// trip for all of them instead of one each (libpq's pipeline mode). PostgreSQL stops
    /// at the first statement that fails and skips the rest; that failure is thrown. In a
    /// transaction (`BEGIN` among the statements), the transaction is then aborted, and
    /// the caller rolls it back.
    func pipeline(_ statements: [Statement]) throws(PostgreSQLError) -> [PostgreSQLRows] {
        var names: [String] = []
        for statement in statements {
            // Refused before anything is sent: a pipeline cannot be taken back halfway.
            try Self.refuseNUL(in: statement.parameters, sql: statement.sql)
            names.append(try statementName(for: statement.sql))
        }
        guard PQenterPipelineMode(handle) == 1 else { throw failure(sql: nil) }
        // Sent whole, then read: the statements are small, and libpq reads what the server
        // sends while it waits to write, so a large result (a search's page of long notes)
        // cannot hold up the sending.
        for (statement, name) in zip(statements, names) {
            let sent = try Self.withParameters(statement.parameters, sql: statement.sql) {
                count, values, lengths, formats in
                PQsendQueryPrepared(handle, name, count, values, lengths, formats, 0)
            }
            guard sent == 1 else { throw failure(sql: statement.sql) }
        }
        guard PQpipelineSync(handle) == 1 else { throw failure(sql: nil) }
        var rows: [PostgreSQLRows] = []
        var firstFailure: PostgreSQLError?
        for statement in statements {
            // Before the statement's first result, as pipeline mode wants it.
            if statement.eachRow != nil, PQsetSingleRowMode(handle) != 1 {
                throw failure(sql: statement.sql)
            }
            guard var result = PQgetResult(handle) else {
                // Only a connection that broke ends the results early.
                throw firstFailure ?? failure(sql: statement.sql)
            }
            if let eachRow = statement.eachRow {
                while PQresultStatus(result) == PGRES_SINGLE_TUPLE {
                    eachRow(PostgreSQLRows(result))
                    guard let next = PQgetResult(handle) else {
                        throw firstFailure ?? failure(sql: statement.sql)
                    }
                    result = next
                }
            }
            // Each statement's results end with a NULL.
            while let extra = PQgetResult(handle) { PQclear(extra) }
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
                rows.append(PostgreSQLRows(result))
            case PGRES_PIPELINE_ABORTED:
                PQclear(result)
            default:
                do throws(PostgreSQLError) {
                    try check(result, sql: statement.sql)
                } catch {
                    firstFailure = firstFailure ?? error
                }
                PQclear(result)
            }
        }
        guard let sync = PQgetResult(handle) else { throw firstFailure ?? failure(sql: nil) }
        let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        PQclear(sync)
        guard synced, PQexitPipelineMode(handle) == 1 else {
            throw firstFailure ?? failure(sql: nil)
        }
        if let firstFailure { throw firstFailure }
        return rows
    }

    /// libpq's message for a call that failed without a result.
    private func failure(sql: String?) -> PostgreSQLError {
        PostgreSQLError(
            sqlState: isBroken ? PostgreSQLError.connectionFailure : "XX000",
            message: lastErrorMessage, sql: sql)
    }

    /// The text format ends a value at its first NUL; PostgreSQL's text holds none.
    private static func refuseNUL(
        in parameters: [PostgreSQLValue], sql: String
    ) throws(PostgreSQLError) {
        for case .text(let text) in parameters where text.utf8.contains(0) {
            throw PostgreSQLError(
                sqlState: "22021", message: "text holds a NUL character", sql: sql)
        }
    }

    /// The parameters as libpq takes them: text, except bytes (binary); valid in `body`.
    private static func withParameters<Result>(
        _ parameters: [PostgreSQLValue], sql: String,
        _ body: (
            Int32, UnsafePointer<UnsafePointer<CChar>?>?, [Int32], [Int32]
        ) -> Result
    ) throws(PostgreSQLError) -> Result {
        try refuseNUL(in: parameters, sql: sql)
        var lengths = [Int32](repeating: 0, count: parameters.count)
        var formats = [Int32](repeating: 0, count: parameters.count)
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        buffers.reserveCapacity(parameters.count)
        defer { for buffer in buffers { buffer?.deallocate() } }
        for (index, parameter) in parameters.enumerated() {
            let bytes: [UInt8]?
            switch parameter {
            case .integer(let value): bytes = Array(String(value).utf8)
            case .integers(let values):
                bytes = Array("{\(values.map(String.init).joined(separator: ","))}".utf8)
            case .texts(let texts):
                let elements = texts.map { text in
                    "\""
                        + text.replacingOccurrences(of: "\\", with: "\\\\")
                        .replacingOccurrences(of: "\"", with: "\\\"") + "\""
                }
                bytes = Array("{\(elements.joined(separator: ","))}".utf8)
            case .text(let text): bytes = Array(text.utf8)
            case .bytes(let value):
                bytes = value
                formats[index] = 1
            case .null: bytes = nil
            }
            guard let bytes else {
                buffers.append(nil)
                continue
            }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            bytes.withUnsafeBufferPointer { source in
                UnsafeMutableRawPointer(buffer).copyMemory(
                    from: UnsafeRawPointer(source.baseAddress!), byteCount: bytes.count)
            }
            buffer[bytes.count] = 0
            lengths[index] = Int32(bytes.count)
            buffers.append(buffer)
        }
        return buffers.withUnsafeBufferPointer { values in
            values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                body(Int32(parameters.count), values.baseAddress, lengths, formats)
            }
        }
    }

    private func statementName(for sql: String) throws(PostgreSQLError) -> String {
        if let name = prepared[sql] { return name }
        let name = "mynotes_\(prepared.count + 1)"
        let result = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?, sql: String) throws(PostgreSQLError) {
        if let result {
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return
            default: break
            }
            let state = PQresultErrorField(result, Self.sqlStateField).map { String(cString: $0) }
            // The primary message alone: the full one adds context lines and a severity.
            let message =
                PQresultErrorField(result, Self.primaryMessageField).map { String(cString: $0) }
                ?? Self.trimmed(String(cString: PQresultErrorMessage(result)))
            throw PostgreSQLError(
                sqlState: state ?? (isBroken ? PostgreSQLError.connectionFailure : "XX000"),
                message: message.isEmpty ? lastErrorMessage : message, sql: sql)
        }
        throw PostgreSQLError(
            sqlState: isBroken ? PostgreSQLError.connectionFailure : "53200",
            message: lastErrorMessage, sql: sql)
    }

    private var lastErrorMessage: String { Self.trimmed(String(cString: PQerrorMessage(handle))) }

    /// `PG_DIAG_SQLSTATE`, a character constant Swift does not import.
    private static let sqlStateField = Int32(UInt8(ascii: "C"))
    /// `PG_DIAG_MESSAGE_PRIMARY`.
    private static let primaryMessageField = Int32(UInt8(ascii: "M"))

    private static func trimmed(_ message: String) -> String {
        var message = Substring(message)
        while message.last?.isWhitespace == true { message = message.dropLast() }
        if message.hasPrefix("ERROR:  ") { message = message.dropFirst("ERROR:  ".count) }
        return String(message)
    }

    /// `strings` as a NULL-terminated array of C strings, valid during `body`.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
