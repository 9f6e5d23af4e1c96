import Foundation
import MyNotesDomain
import MyNotesTesting
import Testing

@testable import Storage

/// Migration change-feed over a database of the steps before it (issue 12): every note
/// already stored gets a change, so a full sync lists it, and the account's next write
/// continues the sequence.
@Suite struct ChangeFeedMigrationTests {
    @Test func notesStoredBeforeTheFeedAreListedByAFullSync() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let earlier = SQLiteMigrations.all.prefix { $0.name != "change-feed" }
        #expect(SQLiteMigrations.all.dropFirst(earlier.count).first?.name == "change-feed")
        let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
        try connection.execute(
            earlier.map(\.sql).joined(separator: "\n")
                + """
                CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)
                    WITHOUT ROWID;
                INSERT INTO schema_migrations VALUES
                    \(earlier.map { "('\($0.name)', 1)" }.joined(separator: ", "));
                INSERT INTO accounts (id, email, created_at) VALUES (1, 'ann@x', 5), (2, 'bob@x', 6);
                INSERT INTO notes (id, account_id, date, sort_key, content, created_at, updated_at)
                VALUES (1, 1, '2026-11-29', '2026-11-29 00:00:00', 'first', 5, 5),
                    (2, 2, '2026-11-29', '2026-11-29 00:00:00', 'bob''s', 6, 6),
                    (3, 1, '2026-11-30', '2026-11-30 00:00:00', 'second', 7, 7);
                """)
        try await database.withStore { store in
            guard case .page(let page) = try await store.changes(account: 1, after: nil, limit: 10)
            else {
                Issue.record("a full sync read as expired")
                return
            }
            #expect(page.changes.map(\.noteID) == [1, 3])
            #expect(page.changes.map(\.sequence) == [1, 2])
            #expect(page.changes.allSatisfy { $0.kind == .created && $0.version == 1 })
            #expect(page.cursor == 2)
            #expect(try await store.changePosition(account: 2) == 1)
            let added = try await store.addNote(
                NoteDraft(date: "2026-12-01", content: "third"), account: 1, quota: .unlimited)
            guard case .page(let next) = try await store.changes(account: 1, after: 2, limit: 10)
            else { return }
            #expect(next.changes.map(\.noteID) == [added.id])
            #expect(next.changes.map(\.sequence) == [3])
            // The usage totals still follow every write, now kept by the feed's triggers.
            let usage = try await store.read { connection throws(SQLiteError) in
                let statement = try connection.statement(
                    "SELECT note_count, note_bytes FROM accounts WHERE id = 1")
                _ = try statement.step()
                return (statement.int64(0), statement.int64(1))
            }
            #expect(
                usage == (3, Int64("first".utf8.count + "second".utf8.count + "third".utf8.count)))
        }
    }
}
