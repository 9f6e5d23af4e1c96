import Foundation
import Testing

@testable import Storage

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
        let watch = SQLiteChangeWatch(databasePath: database.path)
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

        // The last connections close: SQLite checkpoints and deletes -wal and -shm.
        connection = nil
        _ = consume other
        _ = connection
        #expect(!FileManager.default.fileExists(atPath: database.path + "-shm"))
        #expect(watch.stamp() == nil)

        // A new index: its stamps match none of the old file's.
        let reopened = try Self.walConnection(database.path)
        try reopened.execute("INSERT INTO t VALUES (4)")
        let after = try #require(watch.stamp())
        #expect(!seen.contains(after))
    }

    @Test func aDatabaseWithoutAWALIndexStampsNothing() {
        let watch = SQLiteChangeWatch(databasePath: "/nonexistent/notes.sqlite")
        #expect(watch.stamp() == nil)
    }
}
