import Foundation
import MyNotesDomain
import Storage
import Testing

/// SQLite's migration step 2 over a database made by step 1.
@Suite struct SQLiteMigrationStepTwoTests {
    let database: TemporaryDatabaseFile
    var path: String { database.path }

    init() throws {
        database = try TemporaryDatabaseFile()
    }

    func withStore<T>(_ body: (SQLiteNoteStore) async throws -> T) async throws -> T {
        defer { database.remove() }
        return try await database.withStore(body)
    }

    /// A database made by step 1 keeps working: each account's token moves to `tokens`.
    @Test func migrationStepTwoMovesEachAccountsTokenIntoTheTokensTable() async throws {
        let stepOne = """
            CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE,
                token_hash BLOB NOT NULL, created_at INTEGER NOT NULL);
            CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT,
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                date TEXT NOT NULL, sort_key TEXT NOT NULL, content TEXT NOT NULL,
                created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
            CREATE INDEX notes_by_account_newest ON notes (account_id, sort_key DESC, id DESC);
            INSERT INTO accounts VALUES (1, 'ann@x', x'0102', 5), (2, 'bob@x', x'0304', 6);
            INSERT INTO notes VALUES (1, 1, '2026-11-29', '2026-11-29 00:00:00', 'old', 5, 5);
            PRAGMA user_version = 1;
            """
        try database.execute(stepOne)
        try await withStore { store in
            #expect(try await store.account(tokenHash: [1, 2])?.account.email == "ann@x")
            #expect(try await store.account(tokenHash: [3, 4])?.account.email == "bob@x")
            let notes = try await store.notes(account: 1)
            #expect(notes.map(\.content) == ["old"])
            #expect(notes.first?.version == 1)
        }
    }
}
