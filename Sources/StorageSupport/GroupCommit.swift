import MyNotesDomain

/// How the SQLite writer gathers writes into one commit.
///
/// Every commit costs the same whatever it holds: its WAL frames for the pages the writes
/// share, an fsync, the WAL index, the kept answers' ledger. Writes that arrive while a
/// commit is under way join the next one by themselves; but when a stream of writes is
/// mixed with reads (a query per add, say), the writer often finds only a few waiting and
/// commits them at once, and the per-commit cost is then paid every few writes, on the core
/// that also answers the reads. So while writes keep coming from several writers, a small
/// batch waits a little for more to join it, as long as they keep coming. A write that comes
/// alone, after a quiet moment, commits at once. One writer that sends each write after
/// the last is acknowledged (an import) looks like a stream too, but nothing joins its
/// waits: after a wait that nothing joined, the writer stops waiting for a number of batches
/// that doubles with each such wait in a row (up to 64), so such a writer waits once in 65
/// writes.
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
    /// the writes that joined it so far, kept within this range (its upper bound until two
    /// have joined: one gap says little of the pace): the burst that came back after a
    /// commit resumed a few writers has ended, while a steady stream keeps it waiting.
    public var quietGap: ClosedRange<Duration>
    /// A batch this large commits without waiting, and one that follows a commit this
    /// large does not wait either: the per-commit cost is spread enough, and many writers
    /// at once form their batches by themselves (those that come during a commit), while
    /// the core answers the next ones during its fsync.
    public var fullBatch: Int

    public init(
        maxDelay: Duration, streamGap: Duration, quietGap: ClosedRange<Duration>, fullBatch: Int
    ) {
        self.maxDelay = max(.zero, maxDelay)
        self.streamGap = max(.zero, streamGap)
        self.quietGap = max(.zero, quietGap.lowerBound)...max(.zero, quietGap.upperBound)
        self.fullBatch = max(1, fullBatch)
    }

    /// Commits every batch as soon as the writer is free.
    public static let immediate = GroupCommit(
        maxDelay: .zero, streamGap: .zero, quietGap: .zero ... .zero, fullBatch: 1)

    /// The default: in a stream of writes, a batch of fewer than 16 after a commit of fewer
    /// than 16 waits up to 4 ms for more, while they keep coming (none for 100 µs – 1 ms
    /// ends it).
    public static let standard = GroupCommit(
        maxDelay: .milliseconds(4), streamGap: .milliseconds(2),
        quietGap: .microseconds(100) ... .milliseconds(1), fullBatch: 16)

    package static let gapsOfQuiet = 8

    /// How long a waiting batch waits for its next write after `joined` writes joined it
    /// over `span` (from the start of its wait to the last of them to be queued): writes
    /// that were already queued say nothing of the pace, having come together during the
    /// previous commit.
    package func quiet(joined: Int, over span: Duration) -> Duration {
        guard joined >= 2 else { return quietGap.upperBound }
        return (span / joined * Self.gapsOfQuiet).clamped(to: quietGap)
    }

    /// Whether a batch of `count` writes, the first queued at `firstQueued`, waits for more,
    /// given the writer's `pace`: when the writer is in a stream of small commits (the first
    /// write came soon after the last commit, which was small too) and waiting has not just
    /// proved useless (``Pace``). The first commit never waits.
    package func waits(count: Int, firstQueued: ContinuousClock.Instant, pace: Pace) -> Bool {
        guard maxDelay > .zero, let ended = pace.lastEnded, count < fullBatch,
            pace.lastWrites < fullBatch, pace.batchesNotWaiting == 0
        else { return false }
        return ended.duration(to: firstQueued) < streamGap
    }
}

extension Duration {
    fileprivate func clamped(to range: ClosedRange<Duration>) -> Duration {
        Swift.min(range.upperBound, Swift.max(range.lowerBound, self))
    }
}
