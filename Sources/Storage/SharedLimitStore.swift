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
    /// Records one failure now under each key.
    func recordFailure(keys: [String]) async throws(StoreError)
    /// For each key with failures within `window`: how many, and how long ago the oldest
    /// of them was.
    func failures(keys: [String], within window: Duration) async throws(StoreError)
        -> [String: FailureCount]
    /// Forgets the key's failures.
    func clearFailures(key: String) async throws(StoreError)
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

/// Failures under one key within a window.
public struct FailureCount: Sendable, Hashable {
    public var count: Int
    /// How long ago the oldest failure in the window was.
    public var oldestAge: Duration

    public init(count: Int, oldestAge: Duration) {
        self.count = count
        self.oldestAge = oldestAge
    }
}
