/// How the SQLite writer gathers writes into one commit.
///
/// Every commit costs the same whatever it holds: its WAL frames for the pages the writes
/// share, an fsync, the WAL index, the kept answers' ledger. Writes that arrive while a
/// commit is under way join the next one by themselves; but when a stream of writes is
/// mixed with reads (a query per add, say), the writer often finds only a few waiting and
/// commits them at once, and the per-commit cost is then paid every few writes, on the core
/// that also answers the reads. So while writes keep coming, a small batch waits a little
/// for more to join it, as long as they keep coming. A write that comes alone, after a quiet
/// moment, commits at once.
///
/// ```swift
/// var limits = StoreLimits()
/// limits.groupCommit = .immediate   // every batch commits as soon as the writer is free
/// ```
public struct GroupCommit: Sendable, Hashable {
    /// Longest a batch waits for more writes before it commits.
    public var maxDelay: Duration
    /// A batch waits only when its first write came within this of the previous commit's
    /// end: the writer is then in a stream of writes, not serving a lone one.
    public var streamGap: Duration
    /// A waiting batch commits once no write joined it for eight times the mean gap between
    /// its writes so far (at least 100 µs, at most this): the burst that came back after a
    /// commit resumed many writers has ended, while a steady stream keeps it waiting.
    public var quietGap: Duration
    /// A batch this large commits without waiting, and one that follows a commit this
    /// large does not wait either: the per-commit cost is spread enough, and many writers
    /// at once form their batches by themselves (those that come during a commit), while
    /// the core answers the next ones during its fsync.
    public var fullBatch: Int

    public init(maxDelay: Duration, streamGap: Duration, quietGap: Duration, fullBatch: Int) {
        self.maxDelay = max(.zero, maxDelay)
        self.streamGap = max(.zero, streamGap)
        self.quietGap = max(.zero, quietGap)
        self.fullBatch = max(1, fullBatch)
    }

    /// Commits every batch as soon as the writer is free.
    public static let immediate = GroupCommit(
        maxDelay: .zero, streamGap: .zero, quietGap: .zero, fullBatch: 1)

    /// The default: in a stream of writes, a batch of fewer than 16 after a commit of fewer
    /// than 16 waits up to 4 ms for more, while they keep coming (none for 1 ms at the most
    /// ends it).
    public static let standard = GroupCommit(
        maxDelay: .milliseconds(4), streamGap: .milliseconds(2), quietGap: .milliseconds(1),
        fullBatch: 16)

    static let quietFloor = Duration.microseconds(100)
    static let gapsOfQuiet = 8

    /// How long a waiting batch of `count` writes, queued over `span`, waits for the next.
    func quiet(count: Int, span: Duration) -> Duration {
        guard count >= 2 else { return quietGap }
        let meanGap = span / (count - 1)
        return min(quietGap, max(Self.quietFloor, meanGap * Self.gapsOfQuiet))
    }

    /// Whether a batch of `count` writes, the first queued `gap` after the previous commit
    /// (of `previous` writes) ended, waits for more.
    func waits(count: Int, previous: Int, gap: Duration) -> Bool {
        maxDelay > .zero && count < fullBatch && previous < fullBatch && gap < streamGap
    }
}
