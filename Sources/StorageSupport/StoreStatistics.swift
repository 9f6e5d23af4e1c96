import MyNotesDomain
import Telemetry

/// What a store measures as it works, for `/metrics`: how long reads and writes wait
/// for a thread, how many writes share a commit, and how long the commit (its fsync)
/// takes. Recorded with relaxed atomics, never a lock.
///
/// ```swift
/// let statistics = StoreStatistics()
/// statistics.commitBatchSize.observe(12)
/// statistics.commitBatchSize.snapshot().count  // 1
/// ```
public final class StoreStatistics: Sendable {
    /// From a read's submission to the start of its work on a reader thread.
    public let readWait = Histogram.latency
    /// From a write's submission to the start of the batch that holds it.
    public let writeWait = Histogram.latency
    /// Writes per commit.
    public let commitBatchSize = Histogram.sizes
    /// The `COMMIT` of a batch: with `synchronous=FULL` mostly its fsync.
    public let commitDuration = Histogram.latency
    /// SQLite: how long a batch waited for more writes to join it (``GroupCommit``), for
    /// the batches that waited.
    public let commitDelay = Histogram.latency
    /// Notes (SQLite) or changes (PostgreSQL) the search index took in per batch of its
    /// own: the count is the batches, the sum what they indexed.
    public let searchIndexBatchSize = Histogram.sizes

    public init() {}
}
