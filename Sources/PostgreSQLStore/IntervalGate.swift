import MyNotesDomain

/// Lets work through at most once an interval: the PostgreSQL search indexer's ANALYZE
/// (``PostgreSQLSearchIndexer/analyzeIntervalNanoseconds``). The caller gives the time
/// (monotonic nanoseconds), so that a test states it rather than waiting for it.
///
/// ```swift
/// var gate = IntervalGate(nanoseconds: 60_000_000_000)
/// gate.isOpen(at: now)  // true: nothing went through yet
/// gate.pass(at: now)
/// gate.isOpen(at: now + 59_000_000_000)  // false until a minute has passed
/// ```
struct IntervalGate {
    /// How long after a pass the gate stays shut.
    let nanoseconds: Int
    /// When work last went through.
    private(set) var passed: Int?

    init(nanoseconds: Int) {
        self.nanoseconds = nanoseconds
    }

    /// Whether work may go through `now`: none has, or the last did an interval ago or more.
    func isOpen(at now: Int) -> Bool {
        guard let passed else { return true }
        return now - passed >= nanoseconds
    }

    /// Records that work went through `now`.
    mutating func pass(at now: Int) {
        passed = now
    }
}
