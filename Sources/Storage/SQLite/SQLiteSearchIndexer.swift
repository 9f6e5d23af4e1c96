import Metrics
import Synchronization

/// When the writer moves waiting notes into the search index (``SQLiteSearchIndex``):
/// not in the commits of the writes that add them (a durable add would pay for the FTS5
/// tables' work), but in batches of their own on the writer's thread, when the store has
/// been quiet for a moment, or right after a commit once more than ``priorityLag`` notes
/// wait (searches test waiting notes one by one, so the wait stays bounded).
///
/// The count of waiting notes is kept here, changed only on the writer's thread (by the
/// writes that add or change notes, and by the batches); reads and writes tell it of
/// activity from any thread.
///
/// ```swift
/// let indexer = SQLiteSearchIndexer(waiting: 0)
/// indexer.added()         // in a write that added a note
/// indexer.hasWork         // true: a batch will index it
/// ```
final class SQLiteSearchIndexer: Sendable {
    /// Notes per batch: about 10 ms of work, which a write arriving meanwhile waits for.
    static let batchNotes = 256
    /// How long the store has to be without reads and writes before a batch runs.
    static let quietNanoseconds = 20_000_000
    /// Waiting notes past which a batch follows every commit.
    static let priorityLag = 50_000
    /// How long the writer leaves the index alone after a batch failed (a full disk).
    static let retryNanoseconds = 1_000_000_000

    private let lag: Atomic<Int>
    private let lastActivity = Atomic<Int>(MonotonicTime.nanoseconds)
    private let retryAt = Atomic<Int>(0)

    init(waiting: Int) {
        lag = Atomic(waiting)
    }

    /// Notes wait: one was added or changed (on the writer's thread).
    func added(_ count: Int = 1) {
        lag.add(count, ordering: .relaxed)
    }

    /// A read or a write happened now.
    func noteActivity() {
        lastActivity.store(MonotonicTime.nanoseconds, ordering: .relaxed)
    }

    /// Notes wait, and no failed batch asks to wait before the next.
    var hasWork: Bool {
        lag.load(ordering: .relaxed) > 0
            && MonotonicTime.nanoseconds >= retryAt.load(ordering: .relaxed)
    }

    /// So many notes wait that a batch follows every commit.
    var isBehind: Bool { hasWork && lag.load(ordering: .relaxed) >= Self.priorityLag }

    /// Nothing was read or written for ``quietNanoseconds``.
    var isQuiet: Bool {
        MonotonicTime.nanoseconds - lastActivity.load(ordering: .relaxed) >= Self.quietNanoseconds
    }

    /// One batch, in the caller's transaction on the writer's connection.
    func runBatch(on connection: SQLiteConnection) throws(SQLiteError) {
        let indexed = try SQLiteSearchIndex.indexWaiting(on: connection, limit: Self.batchNotes)
        if indexed < Self.batchNotes {
            lag.store(0, ordering: .relaxed)
        } else {
            let left = max(1, lag.load(ordering: .relaxed) - indexed)
            lag.store(left, ordering: .relaxed)
        }
    }

    /// Nothing waits any more (every waiting note was indexed, on the writer's thread).
    func caughtUp() {
        lag.store(0, ordering: .relaxed)
    }

    /// A batch failed: the next waits ``retryNanoseconds``.
    func batchFailed() {
        if lag.load(ordering: .relaxed) == 0 { lag.store(1, ordering: .relaxed) }
        retryAt.store(MonotonicTime.nanoseconds + Self.retryNanoseconds, ordering: .relaxed)
    }
}
