/// The change feed's rules: how long tombstones of removed notes are kept, and
/// what the live streams (`GET /api/v1/changes/stream`) may hold.
///
/// ```swift
/// var service = ServiceConfiguration()
/// service.changeFeed.retention = .seconds(7 * 86_400)  // --change-retention 7d
/// service.changeFeed.heartbeat = .milliseconds(200)    // tests: see a heartbeat at once
/// ```
public struct ChangeFeedConfiguration: Sendable {
    /// How long a removed note's tombstone stays in the feed (on the service's clock); a
    /// cursor older than a purged tombstone answers 410. `nil` keeps them for ever.
    public var retention: Duration? = .seconds(30 * 86_400)
    /// How often a stream with nothing to say sends a heartbeat comment (keeping proxies
    /// and the server's idle timeout from closing it, and finding clients that left).
    public var heartbeat: Duration = .seconds(15)
    /// The reconnection delay a stream suggests to its client (`retry:`).
    public var reconnectDelay: Duration = .seconds(3)
    /// Streams one account may hold open at once; one more answers 429.
    public var streamsPerAccount = 32
    /// Streams open at once on this server; one more answers 503. Each also holds one of
    /// the server's connections (`--max-connections`).
    public var maximumStreams = 10_000
    /// Bytes of events a stream may hold for a client that reads slowly; a client that has
    /// read nothing for ``stallLimit`` with this much waiting is dropped (it resumes with
    /// `Last-Event-ID`).
    public var streamBufferBytes = 16 << 10
    /// How long a stream may wait for a slow client to take its bytes before it is dropped.
    public var stallLimit: Duration = .seconds(30)

    public init() {}
}
