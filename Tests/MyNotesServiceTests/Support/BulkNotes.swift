import CSQLite
import Foundation
import MyNotesDomain
import SQLiteStore

/// Fills an account with many notes in one transaction, straight through SQLite: a test
/// needs a large account in a second, and a durable add per note would take minutes.
enum BulkNotes {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Inserts `count` notes for the account with `email`, the `n`-th (from 1) dated
    /// `date` with the content `content(n)`. The database may be open in a server: WAL
    /// lets this connection write beside its readers. The notes go into the search index
    /// too, as a store opening the database would index them.
    static func insert(
        _ count: Int, email: String, into path: String, date: String = "2026-11-29",
        content: (Int) -> String
    ) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let db = handle else {
            throw Failure(description: "cannot open \(path)")
        }
        defer { sqlite3_close(db) }
        sqlite3_busy_timeout(db, 10_000)
        try run(db, "BEGIN IMMEDIATE")
        var statement: OpaquePointer?
        let sql = """
            INSERT INTO notes (account_id, date, sort_key, content, created_at, updated_at)
            SELECT id, ?1, ?2, ?3, 0, 0 FROM accounts WHERE email = ?4
            """
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        let sortKey = date.utf8.count == 10 ? date + " 00:00:00" : date
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for n in 1...count {
            sqlite3_reset(statement)
            sqlite3_bind_text(statement, 1, date, -1, transient)
            sqlite3_bind_text(statement, 2, sortKey, -1, transient)
            let text = content(n)
            sqlite3_bind_text(statement, 3, text, -1, transient)
            sqlite3_bind_text(statement, 4, email, -1, transient)
            guard sqlite3_step(statement) == SQLITE_DONE, sqlite3_changes(db) == 1 else {
                throw Failure(description: "insert \(n): \(String(cString: sqlite3_errmsg(db)))")
            }
        }
        try run(db, "COMMIT")
        try SQLiteNoteStore.indexWaitingNotes(inDatabaseAt: path)
    }

    /// Runs `sql` on a connection of its own, as another process writing to the same
    /// database (`mynotes-server accounts …` beside a running server) would.
    static func execute(_ sql: String, on path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let db = handle else {
            throw Failure(description: "cannot open \(path)")
        }
        defer { sqlite3_close(db) }
        sqlite3_busy_timeout(db, 10_000)
        try run(db, sql)
    }

    private static func run(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
    }

    /// Text that needs every escape JSON and XML have, and some that neither needs:
    /// quotes, backslash, `<`, `&`, `>`, CR, LF, tab, CJK, emoji, U+007F is refused by
    /// the protocol so it is not here.
    static func awkward(_ n: Int) -> String {
        let pieces = [
            #"He said "hi" \ back"#, "a < b && c > d", "line\r\nbreak\ttab", "中文笔记，日本語",
            "emoji 🎉👩‍💻", "<Note><ID>1</ID></Note>", #"{"ResultCode":-9}"#, "&amp; &#13;",
        ]
        return (0..<(n % 7 + 3)).map { pieces[($0 + n) % pieces.count] }.joined(separator: " ")
            + " #\(n)"
    }
}
