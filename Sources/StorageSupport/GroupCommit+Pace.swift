import MyNotesDomain

extension GroupCommit {
    /// What the writer knows of its recent commits, for whether the next batch waits
    /// (``GroupCommit/waits(count:firstQueued:pace:)``).
    package struct Pace: Sendable, Equatable {
        /// When the last commit ended (its writes about to be resumed); `nil` before the first.
        package private(set) var lastEnded: ContinuousClock.Instant?
        /// The last commit's writes.
        package private(set) var lastWrites = 0
        /// Batches that commit at once before waiting is tried again.
        package private(set) var batchesNotWaiting = 0
        /// How many batches the next useless wait holds back from waiting.
        package private(set) var backoff = 0

        package static let maxBackoff = 64

        package init() {}

        /// After a commit of `writes` that ended at `ended`: `waited` is whether its batch
        /// waited, `joined` how many writes joined it meanwhile.
        package mutating func committed(
            _ writes: Int, endedAt ended: ContinuousClock.Instant, waited: Bool, joined: Int
        ) {
            lastEnded = ended
            lastWrites = writes
            if waited && joined > 0 {
                backoff = 0
            } else if waited {
                backoff = min(Self.maxBackoff, max(1, backoff * 2))
                batchesNotWaiting = backoff
            } else if batchesNotWaiting > 0 {
                batchesNotWaiting -= 1
            }
        }
    }
}
