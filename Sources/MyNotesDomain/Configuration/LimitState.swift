/// Where the sign-in throttle and the sign-up and sign-in rates keep their counts.
///
/// ```swift
/// var service = ServiceConfiguration()
/// service.limitState = .inStore  // several servers on one PostgreSQL database
/// ```
public enum LimitState: Sendable, Hashable {
    /// In this process's memory, on ``ServiceConfiguration/clock``: one server alone.
    case inMemory
    /// In the store, when it keeps them (a `SharedLimitStore`, as the PostgreSQL store
    /// is), on the database's clock, so that every server on the database counts together;
    /// in memory otherwise.
    case inStore
}
