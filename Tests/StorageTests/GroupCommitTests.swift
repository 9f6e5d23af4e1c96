import Dispatch
import Foundation
import MyNotesDomain
import MyNotesTesting
import Synchronization
import Testing

@testable import SQLiteStore
@testable import StorageSupport

/// In a stream of writes a small batch waits for more to join its commit; a write that
/// comes after the writer went quiet commits at once.
@Suite struct GroupCommitTests {
    /// A writer on a database of its own, with its statistics.
    struct Setup {
        let database: TemporaryDatabaseFile
        let statistics = StoreStatistics()
        let writer: SQLiteWriter

        init(_ groupCommit: GroupCommit) throws {
            database = try TemporaryDatabaseFile()
            writer = SQLiteWriter(
                connection: try SQLiteConnection(path: database.path, mode: .readWrite),
                queueLimit: 64, retryAfter: .seconds(1), groupCommit: groupCommit,
                statistics: statistics)
        }

        func close() {
            writer.close()
            database.remove()
        }
    }

    /// Waits of up to 50 s that end only when the batch is full or after `quiet`: a test
    /// sees whether a batch waited without timing it.
    static func patient(fullBatch: Int, quiet: Duration = .seconds(50)) -> GroupCommit {
        GroupCommit(
            maxDelay: .seconds(50), streamGap: .seconds(50), quietGap: quiet...quiet,
            fullBatch: fullBatch)
    }

    /// Holds the writer inside a commit of its own (the first, which never waits) while
    /// `count` writes queue, then lets it go: they come as a batch of several writers'.
    static func queueTogether(
        _ count: Int, on writer: SQLiteWriter, threads: any TaskExecutor
    ) async throws -> [Task<Void, any Error>] {
        let held = try await HeldWriter(writer, on: threads)
        let writes = (0..<count).map { _ in write(on: writer, threads: threads) }
        try await held.waitUntilQueued(count)
        try await held.letGo()
        return writes
    }

    /// An empty write, in a task on the test's own threads.
    static func write(on writer: SQLiteWriter, threads: any TaskExecutor) -> Task<Void, any Error> {
        Task(executorPreference: threads) { try await writer.perform { _ throws(StoreError) in } }
    }

    /// Two writes that came together wait for more, joined one by one, until the batch is
    /// full; the commit after that full one does not wait.
    @Test(.timeLimit(.minutes(5)))
    func aSmallBatchOfSeveralWritersWaitsUntilItIsFull() async throws {
        let setup = try Setup(Self.patient(fullBatch: 4))
        defer { setup.close() }
        let writer = setup.writer

        try await TestThreads.run { threads in
            var writes = try await Self.queueTogether(2, on: writer, threads: threads)
            try await Poll.until("the writer holds 2 writes", every: .milliseconds(1)) {
                writer.heldWrites == 2
            }
            writes.append(Self.write(on: writer, threads: threads))
            try await Poll.until("the writer holds 3 writes", every: .milliseconds(1)) {
                writer.heldWrites == 3
            }
            writes.append(Self.write(on: writer, threads: threads))
            for write in writes { try await write.value }
            // After a full batch, a write commits at once.
            try await writer.perform { _ throws(StoreError) in }
        }

        let batches = setup.statistics.commitBatchSize.snapshot()
        #expect(batches.count == 3, "the held write's, the four's, the last's")
        #expect(batches.sum == 6)
    }

    /// An import: each write sent once the last is acknowledged. Nothing joins its waits,
    /// so it waits at its 2nd, 4th, 7th, 12th, 21st, 38th, 71st and 136th write, then once in
    /// 65.
    @Test(.timeLimit(.minutes(5)))
    func oneWritersWritesInARowRarelyWait() async throws {
        let setup = try Setup(Self.patient(fullBatch: 100, quiet: .milliseconds(2)))
        defer { setup.close() }
        let (writer, statistics) = (setup.writer, setup.statistics)

        try await TestThreads.run { _ in
            for _ in 0..<200 { try await writer.perform { _ throws(StoreError) in } }
        }
        #expect(statistics.commitBatchSize.snapshot().count == 200)
        #expect(statistics.commitDelay.snapshot().count == 8)
    }

    @Test(.timeLimit(.minutes(5)))
    func aWaitingBatchCommitsOnceNoMoreWritesCome() async throws {
        let setup = try Setup(Self.patient(fullBatch: 100, quiet: .milliseconds(5)))
        defer { setup.close() }
        let (writer, statistics) = (setup.writer, setup.statistics)

        try await TestThreads.run { threads in
            for write in try await Self.queueTogether(2, on: writer, threads: threads) {
                try await write.value
            }
        }
        // The wait as the writer's thread measured it, not the test's: its threads are its
        // own, but the machine's cores are shared with the other suites.
        let waits = statistics.commitDelay.snapshot()
        #expect(waits.count == 1)
        #expect(waits.sum < 25, "it waited out the delay: \(waits.sum) s")
    }

    /// How long a waiting batch waits for its next write: eight of the mean gaps between the
    /// writes that joined it, within 100 µs – 1 ms, and 1 ms until two have joined.
    @Test(arguments: [
        (0, Duration.zero, Duration.milliseconds(1)),
        (1, .microseconds(20), .milliseconds(1)),
        (2, .microseconds(40), .microseconds(160)),
        (64, .microseconds(1_280), .microseconds(160)),
        (2, .microseconds(4), .microseconds(100)),
        (4, .milliseconds(4), .milliseconds(1)),
    ])
    func aBurstEndsSoonerThanAStream(joined: Int, span: Duration, quiet: Duration) {
        #expect(GroupCommit.standard.quiet(joined: joined, over: span) == quiet)
    }

    static func pace(after writes: Int, waited: Bool = false, joined: Int = 0)
        -> GroupCommit.Pace
    {
        var pace = GroupCommit.Pace()
        pace.committed(writes, endedAt: .now, waited: waited, joined: joined)
        return pace
    }

    /// A batch waits in a stream of small commits: its first write came soon after a small
    /// commit, and it is small itself.
    @Test func waitsOnlyForASmallBatchInAStreamOfSmallCommits() throws {
        let policy = GroupCommit.standard
        let small = Self.pace(after: 3)
        let ended = try #require(small.lastEnded)
        #expect(policy.waits(count: 1, firstQueued: ended, pace: small))
        #expect(policy.waits(count: 15, firstQueued: ended - .milliseconds(1), pace: small))
        #expect(!policy.waits(count: 1, firstQueued: ended + .milliseconds(2), pace: small))
        #expect(!policy.waits(count: 16, firstQueued: ended, pace: small))
        #expect(!policy.waits(count: 1, firstQueued: ended, pace: Self.pace(after: 16)))
        #expect(!policy.waits(count: 1, firstQueued: ended, pace: GroupCommit.Pace()))
        #expect(!GroupCommit.immediate.waits(count: 1, firstQueued: ended, pace: small))
    }

    /// After a wait that nothing joined, the next batches do not wait: one, then twice as
    /// many after each such wait in a row, up to 64; a wait that others joined ends it.
    @Test func aUselessWaitHoldsBackTheNextOnesDoublingUpTo64() {
        var pace = Self.pace(after: 1)
        var heldBack: [Int] = []
        for _ in 0..<9 {
            pace.committed(1, endedAt: .now, waited: true, joined: 0)
            var batches = 0
            while pace.batchesNotWaiting > 0 {
                pace.committed(1, endedAt: .now, waited: false, joined: 0)
                batches += 1
            }
            heldBack.append(batches)
        }
        #expect(heldBack == [1, 2, 4, 8, 16, 32, 64, 64, 64])

        pace.committed(5, endedAt: .now, waited: true, joined: 4)
        #expect(pace.batchesNotWaiting == 0)
        pace.committed(1, endedAt: .now, waited: true, joined: 0)
        #expect(pace.batchesNotWaiting == 1)
    }
}
