import Foundation
import MyNotesTesting
import Testing

@testable import Storage

/// In a stream of writes a small batch waits for more to join its commit; a write that
/// comes after the writer went quiet commits at once.
@Suite struct GroupCommitTests {
    static func writer(
        _ database: TemporaryDatabaseFile, _ groupCommit: GroupCommit,
        statistics: StoreStatistics = StoreStatistics()
    ) throws -> SQLiteWriter {
        SQLiteWriter(
            connection: try SQLiteConnection(path: database.path, mode: .readWrite),
            queueLimit: 64, retryAfter: .seconds(1), groupCommit: groupCommit,
            statistics: statistics)
    }

    /// Writes that come one by one, soon after a commit, are held until the batch is full
    /// and then committed together; the commit after that full one does not wait.
    @Test(.timeLimit(.minutes(1)))
    func inAStreamASmallBatchWaitsUntilItIsFull() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let statistics = StoreStatistics()
        let writer = try Self.writer(
            database,
            GroupCommit(
                maxDelay: .seconds(50), streamGap: .seconds(50), quietGap: .seconds(50),
                fullBatch: 4),
            statistics: statistics)
        defer { writer.close() }
        // The first write commits alone: nothing came before it.
        try await writer.perform { _ throws(StoreError) in }

        var writes: [Task<Void, any Error>] = []
        for count in 1...3 {
            writes.append(Task { try await writer.perform { _ throws(StoreError) in } })
            try await Poll.until("the writer holds \(count) writes", every: .milliseconds(1)) {
                writer.heldWrites == count
            }
        }
        writes.append(Task { try await writer.perform { _ throws(StoreError) in } })
        for write in writes { try await write.value }
        // After a full batch, a lone write commits at once.
        try await writer.perform { _ throws(StoreError) in }

        let batches = statistics.commitBatchSize.snapshot()
        #expect(batches.count == 3)
        #expect(batches.sum == 6)
    }

    @Test(.timeLimit(.minutes(1)))
    func aWriteAfterTheWriterWentQuietCommitsAtOnce() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        // Only writes queued while the previous commit was under way are a stream.
        let writer = try Self.writer(
            database,
            GroupCommit(
                maxDelay: .seconds(50), streamGap: .zero, quietGap: .seconds(50), fullBatch: 100))
        defer { writer.close() }
        try await writer.perform { _ throws(StoreError) in }

        let started = ContinuousClock.now
        try await writer.perform { _ throws(StoreError) in }
        #expect(started.duration(to: .now) < .seconds(25), "it did not wait for more")
    }

    @Test(.timeLimit(.minutes(1)))
    func aWaitingBatchCommitsOnceNoMoreWritesCome() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let writer = try Self.writer(
            database,
            GroupCommit(
                maxDelay: .seconds(50), streamGap: .seconds(50), quietGap: .milliseconds(5),
                fullBatch: 100))
        defer { writer.close() }
        try await writer.perform { _ throws(StoreError) in }

        // In the stream (it follows a commit closely), so it waits, but only while others come.
        let started = ContinuousClock.now
        try await writer.perform { _ throws(StoreError) in }
        #expect(started.duration(to: .now) < .seconds(25), "it did not wait out the delay")
    }

    @Test(arguments: [
        (1, Duration.zero, Duration.milliseconds(1)),
        (2, .microseconds(20), .microseconds(160)),
        (65, .microseconds(1_280), .microseconds(160)),
        (3, .microseconds(4), .microseconds(100)),
        (5, .milliseconds(4), .milliseconds(1)),
    ])
    func aBurstEndsSoonerThanAStream(count: Int, span: Duration, quiet: Duration) {
        #expect(GroupCommit.standard.quiet(count: count, span: span) == quiet)
    }

    @Test(arguments: [
        (GroupCommit.standard, 1, 1, Duration.zero, true),
        (.standard, 15, 15, .milliseconds(1), true),
        (.standard, 16, 1, .zero, false),
        (.standard, 1, 16, .zero, false),
        (.standard, 1, 1, .milliseconds(2), false),
        (.standard, 1, 1, .milliseconds(-5), true),
        (.immediate, 1, 1, .milliseconds(-5), false),
    ])
    func waitsOnlyForASmallBatchInAStreamOfSmallOnes(
        policy: GroupCommit, count: Int, previous: Int, gap: Duration, waits: Bool
    ) {
        #expect(policy.waits(count: count, previous: previous, gap: gap) == waits)
    }
}
