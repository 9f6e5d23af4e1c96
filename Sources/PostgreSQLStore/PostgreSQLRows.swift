internal import CLibPQ
import MyNotesDomain
import MyNotesProtocol
import StorageSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The rows a statement returned, in PostgreSQL's text format. Freed when released; read
/// them on the thread that ran the statement, before handing the connection back.
final class PostgreSQLRows {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
        self.result = result
    }

    deinit {
        PQclear(result)
    }

    var count: Int { Int(PQntuples(result)) }

    /// Columns of each row.
    var columnCount: Int32 { PQnfields(result) }

    /// Rows an `INSERT`, `UPDATE` or `DELETE` touched.
    var affectedRows: Int {
        Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    func isNull(_ row: Int, _ column: Int32) -> Bool {
        PQgetisnull(result, Int32(row), column) == 1
    }

    func int64(_ row: Int, _ column: Int32) -> Int64 {
        guard let value = PQgetvalue(result, Int32(row), column) else { return 0 }
        return strtoll(value, nil, 10)
    }

    func text(_ row: Int, _ column: Int32) -> String {
        guard let value = PQgetvalue(result, Int32(row), column) else { return "" }
        let length = Int(PQgetlength(result, Int32(row), column))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(storedText: UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// A text column read as a note's date, parsed from libpq's own bytes (no `String`
    /// made per row); `nil` when it holds no date (`NULL`, or text of a hand-edited row).
    func noteDate(_ row: Int, _ column: Int32) -> NoteDate? {
        guard let value = PQgetvalue(result, Int32(row), column) else { return nil }
        let length = Int(PQgetlength(result, Int32(row), column))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            NoteDate(utf8: UnsafeBufferPointer(start: $0, count: length))
        }
    }

    func optionalText(_ row: Int, _ column: Int32) -> String? {
        isNull(row, column) ? nil : text(row, column)
    }

    /// A `bytea` column, sent by the server as `\x` and hex digits.
    func bytes(_ row: Int, _ column: Int32) -> [UInt8] {
        let hex = Array(text(row, column).utf8.dropFirst(2))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = 0
        while index + 1 < hex.count {
            bytes.append(Self.nibble(hex[index]) << 4 | Self.nibble(hex[index + 1]))
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: digit &- UInt8(ascii: "A") &+ 10
        }
    }
}
