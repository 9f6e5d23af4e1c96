import Locking
import MyNotesDomain
import StorageSupport
import Synchronization
import Telemetry

/// When the writer moves waiting notes into the search index (``SQLiteSearchIndex``):
/// not in the commits of the writes that add them (a durable add would pay for the FTS5
/// tables' work), but in batches of their own on the writer's thread, when the store has
/// been quiet for a moment, or, once the index is *behind*, right after every commit and
/// whenever the writer is idle, until no note waits. Waiting notes cost only searches
/// (each tests them one by one, about a microsecond a note): the index is behind once a
/// search met ``searchedLag`` waiting notes or more, and in any case past ``priorityLag``,
/// so a stream of writes nobody searches meanwhile (an import) pays no index work until it
/// pauses, and a search's extra cost stays bounded.
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
    /// Notes per batch at most: about 10 ms of work when they are short.
    static let batchNotes = 256
    /// How long a batch indexes notes before it commits what it did, whatever their
    /// length: a write arriving meanwhile waits for it. (Under AddressSanitizer in a debug
    /// build, 140 notes of 2 KB took 20 s, which a write on a disk that had been full
    /// waited for.)
    static let batchDuration = Duration.milliseconds(10)
    /// How long the store has to be without reads and writes before a batch runs.
    static let quietNanoseconds = 20_000_000
    /// Waiting notes past which the index is behind, searched or not.
    static let priorityLag = SearchIndexLag.priority
    /// Waiting notes past which a search puts the index behind.
    static let searchedLag = SearchIndexLag.searched
    /// How long the writer leaves the index alone after a batch failed (a full disk).
    static let retryNanoseconds = 1_000_000_000

    private let lag: Atomic<Int>
    private let lastActivity = Atomic<Int>(MonotonicTime.nanoseconds)
    private let retryAt = Atomic<Int>(0)
    /// A search met ``searchedLag`` waiting notes since the index last caught up.
    private let searchedBehind = Atomic<Bool>(false)
    /// Tasks waiting in ``untilCaughtUp()``.
    private let caughtUpWaiters = Lock<[CheckedContinuation<Void, Never>]>([])

    init(waiting: Int) {
        lag = Atomic(waiting)
    }

    /// Notes wait: one was added or changed (on the writer's thread).
    func added(_ count: Int = 1) {
        lag.add(count, ordering: .relaxed)
    }

    /// A read or a write happened now, or a request answered from a kept answer.
    func noteActivity() {
        lastActivity.store(MonotonicTime.nanoseconds, ordering: .relaxed)
    }

    /// Notes added or changed since the index last took them in (at least 1 after a failed
    /// batch, until one succeeds).
    var waitingNotes: Int { lag.load(ordering: .relaxed) }

    /// Notes wait, and no failed batch asks to wait before the next.
    var hasWork: Bool {
        lag.load(ordering: .relaxed) > 0
            && MonotonicTime.nanoseconds >= retryAt.load(ordering: .relaxed)
    }

    /// A search's index path ran now: past ``searchedLag`` waiting notes, the index is
    /// behind.
    func searched() {
        if lag.load(ordering: .relaxed) >= Self.searchedLag,
            !searchedBehind.load(ordering: .relaxed)
        {
            searchedBehind.store(true, ordering: .relaxed)
        }
    }

    /// Batches follow every commit and run whenever the writer is idle, until no note waits.
    var isBehind: Bool {
        hasWork
            && (searchedBehind.load(ordering: .relaxed)
                || lag.load(ordering: .relaxed) >= Self.priorityLag)
    }

    /// Nothing was read or written for ``quietNanoseconds``.
    var isQuiet: Bool {
        MonotonicTime.nanoseconds - lastActivity.load(ordering: .relaxed) >= Self.quietNanoseconds
    }

    /// One batch, in the caller's transaction on the writer's connection, for
    /// ``batchCommitted(_:)``.
    func runBatch(on connection: SQLiteConnection) throws(SQLiteError) -> SQLiteSearchIndex.Batch {
        try SQLiteSearchIndex.indexWaiting(
            on: connection, limit: Self.batchNotes, until: .now + Self.batchDuration)
    }

    /// The writer committed a batch of ``runBatch(on:)`` (on its thread, before any other
    /// write runs): the notes it indexed no longer wait.
    func batchCommitted(_ batch: SQLiteSearchIndex.Batch) {
        if batch.isLast {
            caughtUp()
            // After the commit and the store: a waiter from now on sees no lag and returns.
            let waiters = caughtUpWaiters.withLock { waiters in
                defer { waiters.removeAll() }
                return waiters
            }
            for waiter in waiters { waiter.resume() }
        } else {
            let left = max(1, lag.load(ordering: .relaxed) - batch.indexed)
            lag.store(left, ordering: .relaxed)
        }
    }

    /// Nothing waits any more (every waiting note was indexed, on the writer's thread).
    func caughtUp() {
        lag.store(0, ordering: .relaxed)
        searchedBehind.store(false, ordering: .relaxed)
    }

    /// Returns once the writer's own batches have committed every waiting note into the
    /// index (at once when none waits): the event a test of those batches waits for.
    func untilCaughtUp() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let caughtUp = caughtUpWaiters.withLock { waiters in
                if lag.load(ordering: .relaxed) == 0 { return true }
                waiters.append(waiter)
                return false
            }
            if caughtUp { waiter.resume() }
        }
    }

    /// A batch failed: the next waits ``retryNanoseconds``.
    func batchFailed() {
        if lag.load(ordering: .relaxed) == 0 { lag.store(1, ordering: .relaxed) }
        retryAt.store(MonotonicTime.nanoseconds + Self.retryNanoseconds, ordering: .relaxed)
    }
}
