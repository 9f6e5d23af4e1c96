import Foundation
import MyNotesDomain
import Testing

@testable import Storage

/// The SQLite migration that gives tokens their last use and kind (issue 10), on a real
/// database file; the session methods themselves are in ``SessionsTests``.
@Suite struct SQLiteSessionsTests {
    let database: TemporaryDatabaseFile

    init() throws {
        database = try TemporaryDatabaseFile()
    }

    /// A database of the two earlier steps opens: a token's last use starts as its
    /// creation; tokens of accounts without a password become access keys.
    @Test func theMigrationGivesEveryTokenATimeAndAKind() async throws {
        defer { database.remove() }
        let before = """
            \(SQLiteMigrations.all[0].sql)
            \(SQLiteMigrations.all[1].sql)
            CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)
                WITHOUT ROWID;
            INSERT INTO schema_migrations VALUES ('accounts-and-notes', 1),
                ('tokens-passwords-versions', 1);
            INSERT INTO accounts (id, email, created_at, password_hash)
                VALUES (1, 'ops@x', 5, NULL), (2, 'ann@x', 6, 'p');
            INSERT INTO tokens VALUES (x'01', 1, 5), (x'02', 2, 6), (x'03', 2, 7);
            """
        try database.execute(before)
        try await database.withStore { store in
            let ops = try await store.sessions(account: 1)
            let ann = try await store.sessions(account: 2)
            #expect(ops == [Session(tokenHash: [1], kind: .accessKey, createdAt: 5, lastUsedAt: 5)])
            #expect(
                ann == [
                    Session(tokenHash: [2], kind: .session, createdAt: 6, lastUsedAt: 6),
                    Session(tokenHash: [3], kind: .session, createdAt: 7, lastUsedAt: 7),
                ])
        }
    }
}
