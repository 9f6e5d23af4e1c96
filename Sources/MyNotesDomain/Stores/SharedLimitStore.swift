/// Counters that must hold across every server on one database: token buckets (the
/// sign-up and sign-in rates) and failures within a sliding window (the sign-in throttle).
/// A store shared by many servers (``PostgreSQLNoteStore``) keeps them in its tables on
/// the database's clock; one server alone keeps them in memory instead.
///
/// ```swift
/// let bucket = TokenBucket(key: "sign-in 192.0.2.7", burst: 10, interval: .seconds(2))
/// if let wait = try await store.take(from: [bucket]) { /* 429, Retry-After: wait */ }
/// ```
public protocol SharedLimitStore: Sendable {
    /// Takes one token from every bucket and answers `nil`, or, when any is empty, takes
    /// none and answers how long until all of them hold one. A bucket never seen is full.
    func take(from buckets: [TokenBucket]) async throws(StoreError) -> Duration?
    /// In one step under a lock on the keys, so attempts on every server count together:
    /// when every key has fewer than its limit of failures within `window`, records one
    /// failure now under each and answers their IDs; else records none and answers how
    /// long until the fullest key frees a slot.
    func reserveFailure(keys: [FailureLimit], within window: Duration) async throws(StoreError)
        -> FailureReservation
    /// Forgets these failures (reserved attempts that turned out not to be failures).
    func releaseFailures(_ ids: [Int64]) async throws(StoreError)
    /// Forgets these failures and every failure under `key`.
    func clearFailures(key: String, releasing ids: [Int64]) async throws(StoreError)
}

/// A token bucket: at most `burst` tokens, refilled one per `interval`.
public struct TokenBucket: Sendable, Hashable {
    public var key: String
    public var burst: Int
    public var interval: Duration

    public init(key: String, burst: Int, interval: Duration) {
        self.key = key
        self.burst = max(1, burst)
        self.interval = interval
    }
}

/// A key of failures and how many of them a window may hold.
public struct FailureLimit: Sendable, Hashable {
    public var key: String
    public var limit: Int

    public init(key: String, limit: Int) {
        self.key = key
        self.limit = limit
    }
}

/// The answer of ``SharedLimitStore/reserveFailure(keys:within:)``.
public enum FailureReservation: Sendable, Hashable {
    /// Counted: one failure per key, to release or clear by these IDs.
    case reserved(ids: [Int64])
    /// Some key is at its limit: nothing was counted; try again after this long.
    case refused(retryAfter: Duration)
}
