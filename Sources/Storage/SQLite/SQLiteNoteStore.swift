import Foundation

/// The embedded store: one SQLite file in WAL mode with `synchronous=FULL`.
///
/// Reads run in parallel on pooled read-only connections; writes go through one
/// writer thread that batches concurrent writes into one durable commit.
///
/// ```swift
/// let store = try SQLiteNoteStore(path: "/var/lib/mynotes/mynotes.sqlite")
/// defer { store.close() }
/// ```
public final class SQLiteNoteStore: NoteStore {
    public let path: String
    private let writer: SQLiteWriter
    private let readers: SQLiteReaderPool

    /// Opens (creating if needed) the database at `path` and applies migrations.
    public init(path: String) throws(StoreError) {
        self.path = path
        let connection: SQLiteConnection
        do throws(SQLiteError) {
            connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.execute(
                """
                PRAGMA journal_mode = WAL;
                PRAGMA synchronous = FULL;
                PRAGMA foreign_keys = ON;
                """)
            try SQLiteMigrations.apply(on: connection)
        } catch {
            throw .cannotOpen(location: path, reason: error.message)
        }
        writer = SQLiteWriter(connection: connection)
        readers = SQLiteReaderPool(path: path)
    }

    public func close() {
        writer.close()
        readers.close()
    }

    deinit {
        close()
    }

    // MARK: Accounts

    private static let accountColumns = "id, email, token_hash, created_at"

    public func account(email: String) throws(StoreError) -> Account? {
        try readers.read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                "SELECT \(Self.accountColumns) FROM accounts WHERE email = ?")
            try statement.bind(.text(email))
            return try statement.step() ? Self.account(from: statement) : nil
        }
    }

    public func createAccount(email: String, tokenHash: [UInt8]) throws(StoreError) -> Account {
        try writer.perform { connection throws(StoreError) in
            let exists = try Self.sqlite { () throws(SQLiteError) in
                let existing = try connection.statement("SELECT 1 FROM accounts WHERE email = ?")
                try existing.bind(.text(email))
                return try existing.step()
            }
            if exists { throw .duplicateEmail(email) }
            return try Self.sqlite { () throws(SQLiteError) in
                let insert = try connection.statement(
                    """
                    INSERT INTO accounts (email, token_hash, created_at) VALUES (?, ?, ?)
                    RETURNING \(Self.accountColumns)
                    """)
                try insert.bind(.text(email), .blob(tokenHash), .integer(Self.now()))
                _ = try insert.step()
                return Self.account(from: insert)
            }
        }
    }

    public func allAccounts() throws(StoreError) -> [Account] {
        try readers.read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                "SELECT \(Self.accountColumns) FROM accounts ORDER BY email")
            var accounts: [Account] = []
            while try statement.step() { accounts.append(Self.account(from: statement)) }
            return accounts
        }
    }

    public func removeAccount(email: String) throws(StoreError) -> Bool {
        try writing { connection throws(SQLiteError) in
            let delete = try connection.statement("DELETE FROM accounts WHERE email = ?")
            try delete.bind(.text(email)).run()
            return connection.changes > 0
        }
    }

    public func replaceTokenHash(email: String, tokenHash: [UInt8]) throws(StoreError) -> Bool {
        try writing { connection throws(SQLiteError) in
            let update = try connection.statement(
                "UPDATE accounts SET token_hash = ? WHERE email = ?")
            try update.bind(.blob(tokenHash), .text(email)).run()
            return connection.changes > 0
        }
    }

    // MARK: Notes

    private static let noteColumns = "id, date, content, created_at, updated_at"

    public func notes(account: Int64) throws(StoreError) -> [Note] {
        try readers.read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                """
                SELECT \(Self.noteColumns) FROM notes WHERE account_id = ?
                ORDER BY sort_key DESC, id DESC
                """)
            try statement.bind(.integer(account))
            var notes: [Note] = []
            while try statement.step() { notes.append(Self.note(from: statement)) }
            return notes
        }
    }

    public func accountAndNotes(
        email: String
    ) throws(StoreError) -> (account: Account, notes: [Note])? {
        try readers.read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                """
                SELECT a.id, a.email, a.token_hash, a.created_at,
                    n.id, n.date, n.content, n.created_at, n.updated_at
                FROM accounts a LEFT JOIN notes n ON n.account_id = a.id
                WHERE a.email = ?
                ORDER BY n.sort_key DESC, n.id DESC
                """)
            try statement.bind(.text(email))
            guard try statement.step() else { return nil }
            let account = Self.account(from: statement)
            var notes: [Note] = []
            // A left join gives one row of NULL note columns for an account with none.
            if !statement.isNull(4) {
                repeat {
                    notes.append(Self.note(from: statement, startingAt: 4))
                } while try statement.step()
            }
            return (account, notes)
        }
    }

    public func note(id: Int64, account: Int64) throws(StoreError) -> Note? {
        try readers.read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                "SELECT \(Self.noteColumns) FROM notes WHERE id = ? AND account_id = ?")
            try statement.bind(.integer(id), .integer(account))
            return try statement.step() ? Self.note(from: statement) : nil
        }
    }

    public func addNote(
        _ draft: NoteDraft, account: Int64, quota: NoteQuota
    ) throws(StoreError) -> Note {
        try writer.perform { connection throws(StoreError) in
            if case .atMost(let limit) = quota {
                let held = try Self.sqlite { () throws(SQLiteError) in
                    let count = try connection.statement(
                        "SELECT count(*) FROM notes WHERE account_id = ?")
                    try count.bind(.integer(account))
                    _ = try count.step()
                    return count.int64(0)
                }
                if held >= limit { throw .quotaExceeded(limit: limit) }
            }
            return try Self.sqlite { () throws(SQLiteError) in
                let insert = try connection.statement(
                    """
                    INSERT INTO notes (account_id, date, sort_key, content, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    RETURNING \(Self.noteColumns)
                    """)
                let now = Self.now()
                try insert.bind(
                    .integer(account), .text(draft.date), .text(draft.sortKey),
                    .text(draft.content), .integer(now), .integer(now))
                _ = try insert.step()
                return Self.note(from: insert)
            }
        }
    }

    public func updateNote(
        id: Int64, account: Int64, with draft: NoteDraft
    ) throws(StoreError) -> Note? {
        try writing { connection throws(SQLiteError) in
            let update = try connection.statement(
                """
                UPDATE notes SET date = ?, sort_key = ?, content = ?, updated_at = ?
                WHERE id = ? AND account_id = ?
                RETURNING \(Self.noteColumns)
                """)
            try update.bind(
                .text(draft.date), .text(draft.sortKey), .text(draft.content),
                .integer(Self.now()), .integer(id), .integer(account))
            guard try update.step() else { return nil }
            return Self.note(from: update)
        }
    }

    public func removeNote(id: Int64, account: Int64) throws(StoreError) -> Bool {
        try writing { connection throws(SQLiteError) in
            let delete = try connection.statement(
                "DELETE FROM notes WHERE id = ? AND account_id = ?")
            try delete.bind(.integer(id), .integer(account)).run()
            return connection.changes > 0
        }
    }

    // MARK: Helpers

    /// A write whose only failures are SQLite's.
    private func writing<Value: Sendable>(
        _ body: @escaping (SQLiteConnection) throws(SQLiteError) -> Value
    ) throws(StoreError) -> Value {
        try writer.perform { connection throws(StoreError) in
            try Self.sqlite { () throws(SQLiteError) in try body(connection) }
        }
    }

    /// Runs SQLite calls, reporting their failure as the store's.
    private static func sqlite<Value>(
        _ body: () throws(SQLiteError) -> Value
    ) throws(StoreError) -> Value {
        do throws(SQLiteError) {
            return try body()
        } catch {
            throw StoreError(error)
        }
    }

    /// Milliseconds since 1970, the store's clock for created and updated times.
    private static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }

    private static func account(from statement: SQLiteStatement) -> Account {
        Account(
            id: statement.int64(0), email: statement.text(1), tokenHash: statement.blob(2),
            createdAt: statement.int64(3))
    }

    private static func note(from statement: SQLiteStatement, startingAt first: Int32 = 0) -> Note {
        Note(
            id: statement.int64(first), date: statement.text(first + 1),
            content: statement.text(first + 2), createdAt: statement.int64(first + 3),
            updatedAt: statement.int64(first + 4))
    }
}
