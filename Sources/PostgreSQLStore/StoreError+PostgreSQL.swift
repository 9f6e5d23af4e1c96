import BoundedExecution
import MyNotesDomain

// What the PostgreSQL store's callers are told when the pool or the executor could not run
// their work: one mapping for the store's calls and its batches.
extension StoreError {
    /// A call the pool could not run. Nothing sent (the database is down or restarting)
    /// is, like a full queue, "retry later" (503) at once.
    init(_ error: PostgreSQLPoolError, retryAfter: Duration) {
        switch error {
        case .unreachable: self = .overloaded(retryAfter: retryAfter)
        case .failed(let cause): self = StoreError(cause)
        case .closed: self = .closed
        }
    }

    /// A failure of the store's PostgreSQL calls: the engine's report, or a row it read and
    /// could not make sense of.
    init(_ failure: PostgreSQLError) {
        self = failure.isCorruptRow ? .corruptRow(failure.message) : .database(failure)
    }

    /// Work the store's executor refused: its queue is full, or the store is closed.
    init(_ refusal: BoundedExecutorError, retryAfter: Duration) {
        switch refusal {
        case .overloaded: self = .overloaded(retryAfter: retryAfter)
        case .closed: self = .closed
        }
    }
}
