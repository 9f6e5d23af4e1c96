import Foundation
import MyNotesDomain
import Testing

@testable import SQLiteStore

/// The change stamp moves with every commit, from any connection, and never repeats an
/// old one, even when SQLite replaces the WAL index after its last connection closed.
@Suite struct SQLiteChangeWatchTests {
    static func walConnection(_ path: String) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute("PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS t (x)")
        return connection
    }

    @Test func everyCommitMovesTheStampAndAReplacedIndexIsNeverTrusted() throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        var connection: SQLiteConnection? = try Self.walConnection(database.path)
        let watch = SQLiteChangeWatch()
        #expect(watch.stamp() == nil, "not attached yet")
        watch.attach(to: try #require(connection))
        var seen: [StoreChangeStamp] = []
        let first = try #require(watch.stamp())
        #expect(watch.stamp() == first, "no commit, same stamp")
        seen.append(first)

        // Another connection, as another process would commit.
        let other = try Self.walConnection(database.path)
        for value in 1...3 {
            try other.execute("INSERT INTO t VALUES (\(value))")
            let stamp = try #require(watch.stamp())
            #expect(!seen.contains(stamp))
            seen.append(stamp)
        }

        // The owner detaches before its connection closes; then the last connections close,
        // and SQLite checkpoints and deletes -wal and -shm.
        watch.detach()
        #expect(watch.stamp() == nil)
        connection = nil
        _ = consume other
        _ = connection
        #expect(!FileManager.default.fileExists(atPath: database.path + "-shm"))

        // A new index: its stamps match none of the old file's.
        let reopened = try Self.walConnection(database.path)
        watch.attach(to: reopened)
        try reopened.execute("INSERT INTO t VALUES (4)")
        let after = try #require(watch.stamp())
        #expect(!seen.contains(after))
        try reopened.execute("INSERT INTO t VALUES (5)")
        #expect(try #require(watch.stamp()) != after, "the new index's commits show")
        watch.detach()
    }

    /// A read of one account stays current across the store's own writes to other
    /// accounts, not across one to its account, nor across another connection's commit to
    /// any account, even once the store's own commit follows it in the WAL index.
    @Test func aReadStaysCurrentAcrossOtherAccountsWritesOnly() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        try await database.withStore { store in
            let ann = try await store.createAccount(email: "ann@example.com", tokenHash: [1])
            let bob = try await store.createAccount(email: "bob@example.com", tokenHash: [2])
            let draft = NoteDraft(date: "2026-11-30", content: "note")
            func add(_ account: Account) async throws {
                _ = try await store.addNote(draft, account: account.id, quota: .unlimited)
            }
            func current(_ read: StoreChangeStamp) throws -> Bool {
                store.isUnchanged(
                    account: ann.id, since: read, now: try #require(store.changeStamp()))
            }
            try await add(ann)
            let read = try #require(store.changeStamp())
            #expect(try current(read))
            try await add(bob)
            #expect(try current(read), "bob's note")
            #expect(try await store.removeToken([2]))
            #expect(try current(read), "bob's token")

            // Another connection commits to bob's account, as another process would.
            let other = try Self.walConnection(database.path)
            try other.execute(
                "UPDATE accounts SET created_at = created_at + 1 WHERE email = 'bob@example.com'")
            #expect(try !current(read))
            try await add(bob)
            #expect(try !current(read), "the store's own commit now shows last")

            let later = try #require(store.changeStamp())
            try await add(bob)
            #expect(try current(later))
            #expect(try await store.removeToken([1]))
            #expect(try !current(later), "ann's token")
        }
    }

    /// Without a WAL index there is nothing to read, and attaching makes none: asking
    /// SQLite for the mapping of a database in rollback mode would create the file.
    @Test func aDatabaseWithoutAWALIndexStampsNothing() throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let rollback = try SQLiteConnection(path: database.path, mode: .readWrite)
        try rollback.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        let memory = try SQLiteConnection(path: ":memory:", mode: .readWrite)
        for connection in [rollback, memory] {
            let watch = SQLiteChangeWatch()
            watch.attach(to: connection)
            #expect(watch.stamp() == nil)
        }
        #expect(!FileManager.default.fileExists(atPath: database.path + "-shm"))
    }
}
