import Dispatch
import Foundation
import MyNotesDomain
import Synchronization
import Testing

@testable import SQLiteStore

/// The writer's queue is bounded: with the writer busy and the queue full, one more
/// write is refused at once, and the queued ones still commit.
@Suite struct SQLiteWriterTests {
    @Test func aFullWriteQueueIsRefusedAtOnceAndTheQueuedWritesCommit() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let writer = SQLiteWriter(
            connection: try SQLiteConnection(path: database.path, mode: .readWrite),
            queueLimit: 2, retryAfter: .seconds(3))
        defer { writer.close() }
        // Given the writer thread held inside a batch
        let held = try await HeldWriter(writer)
        // And two writes waiting for the next batch
        let queued = (1...2).map { value in
            Task { try await writer.perform { _ throws(StoreError) in value } }
        }
        try await held.waitUntilQueued(2)
        // Then one more is refused at once, with the configured wait
        await #expect {
            _ = try await writer.perform { _ throws(StoreError) in 3 }
        } throws: { error in
            guard case StoreError.overloaded(let wait) = error else { return false }
            return wait == .seconds(3)
        }
        // And when the writer is free, the held and the queued writes are answered
        try await held.letGo()
        #expect(try await queued[0].value == 1)
        #expect(try await queued[1].value == 2)
    }

    /// A write that finds the database full (SQLite's `max_page_count` stands in for the
    /// disk here; `DiskFullTests` fill a real one) ends the batch's transaction: every
    /// write of that batch fails with SQLITE_FULL and none is stored, and the writer goes
    /// on once there is room.
    @Test func aFullDatabaseFailsItsWholeBatchAndTheWriterGoesOn() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
        try connection.execute(
            "PRAGMA journal_mode = WAL; CREATE TABLE t (name TEXT, data BLOB)")
        let pages = try Self.integer("PRAGMA page_count", on: connection)
        try connection.execute("PRAGMA max_page_count = \(pages + 4)")
        let writer = SQLiteWriter(connection: connection, queueLimit: 16, retryAfter: .seconds(1))
        defer { writer.close() }
        func insert(_ name: String, bytes: Int) -> Task<Void, any Error> {
            Task {
                try await writer.perform { connection throws(StoreError) in
                    do throws(SQLiteError) {
                        let statement = try connection.statement(
                            "INSERT INTO t VALUES (?, zeroblob(?))")
                        try statement.bind(.text(name), .integer(Int64(bytes))).run()
                    } catch {
                        throw .database(error)
                    }
                }
            }
        }
        // Given the writer held inside a batch, so that the next three share one
        let held = try await HeldWriter(writer)
        let small = insert("small", bytes: 10)
        let huge = insert("huge", bytes: 1 << 20)
        let after = insert("after", bytes: 10)
        try await held.waitUntilQueued(3)
        try await held.letGo()
        // Then each write of the batch fails with SQLite's SQLITE_FULL, not a later error
        for write in [small, huge, after] {
            await #expect {
                try await write.value
            } throws: { error in
                guard case StoreError.database(let cause as SQLiteError) = error else {
                    return false
                }
                return cause.code == 13
            }
        }
        // And once there is room, writes go on
        try await writer.perform { connection throws(StoreError) in
            do throws(SQLiteError) {
                try connection.execute("PRAGMA max_page_count = 1000000")
            } catch {
                throw .database(error)
            }
        }
        try await insert("huge again", bytes: 1 << 20).value
        writer.close()
        let check = try SQLiteConnection(path: database.path, mode: .readOnly)
        #expect(
            try Self.texts("SELECT name FROM t ORDER BY rowid", on: check)
                == ["huge again"])
    }

    #if os(Linux)
        /// Woken by every write, the writer must not preempt the loop that queued it: its
        /// thread is a `throughput` one (`SCHED_BATCH`, policy 3).
        @Test func theWritersThreadDoesNotPreemptOnWakingUp() async throws {
            let database = try TemporaryDatabaseFile()
            defer { database.remove() }
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            let writer = SQLiteWriter(
                connection: connection, queueLimit: 4, retryAfter: .seconds(1))
            defer { writer.close() }
            let policy = try await writer.perform { _ throws(StoreError) -> Int32 in
                var policy: Int32 = -1
                var parameters = sched_param()
                _ = pthread_getschedparam(pthread_self(), &policy, &parameters)
                return policy
            }
            #expect(policy == 3)
        }
    #endif

    static func integer(_ sql: String, on connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.statement(sql)
        _ = try statement.step()
        defer { connection.finishStatements() }
        return statement.int64(0)
    }

    static func texts(_ sql: String, on connection: SQLiteConnection) throws -> [String] {
        let statement = try connection.statement(sql)
        defer { connection.finishStatements() }
        var texts: [String] = []
        while try statement.step() { texts.append(statement.text(0)) }
        return texts
    }
}
