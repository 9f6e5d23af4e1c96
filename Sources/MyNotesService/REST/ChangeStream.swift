import BoundedExecution
import HTTPCore
import Locking
import MyNotesDomain

/// One open `GET /api/v1/changes/stream`: a task that sends the account's changes after
/// its cursor as Server-Sent Events, then sleeps until ``ChangeStreamHub`` wakes it (a
/// commit for the account, a heartbeat, the server closing).
///
/// The feed itself is the stream's buffer: a wakeup only says "look", and the stream reads
/// the changes after the last one it sent, so nothing piles up in memory while a client is
/// slow, and no change is sent twice or skipped. What waits for the client is bounded by
/// the body's buffer (``ChangeFeedConfiguration/streamBufferBytes``); a client that takes
/// nothing for ``ChangeFeedConfiguration/stallLimit`` is dropped.
///
/// ```swift
/// let stream = ChangeStream(account: account.id, body: StreamingBody(bufferBytes: 16 << 10))
/// stream.start(from: cursor, feed: feed, configuration: configuration, on: executor) {
///     hub.remove(stream)
/// }
/// ```
final class ChangeStream: Sendable {
    /// Why the stream was woken.
    struct Wake: OptionSet, Sendable {
        let rawValue: Int
        /// The account's feed has new changes (or may have).
        static let changed = Wake(rawValue: 1)
        /// Time for a heartbeat, if nothing else was sent.
        static let heartbeat = Wake(rawValue: 2)
        /// The client left, or the server is closing.
        static let closing = Wake(rawValue: 4)
    }

    private struct State {
        var pending: Wake = []
        var waiter: CheckedContinuation<Wake, Never>?
        /// When the write under way began; `nil` between writes.
        var writingSince: ContinuousClock.Instant?
        var task: Task<Void, Never>?
    }

    let account: Int64
    let body: StreamingBody
    private let state = Lock(State())

    static let heartbeat = Array(": heartbeat\n\n".utf8)

    init(account: Int64, body: StreamingBody) {
        self.account = account
        self.body = body
    }

    /// Starts sending the changes after `cursor`, as a task on `executor`; `ended` runs
    /// once the stream has ended. `authorized` is asked before anything is sent after a
    /// wakeup: once it says no (the token was revoked, the session expired), the stream ends,
    /// and the client's reconnection is answered 401.
    func start(
        from cursor: Int64, feed: ChangeFeed, configuration: ChangeFeedConfiguration,
        on executor: BoundedExecutor, authorized: @escaping @Sendable () async -> Bool,
        ended: @escaping @Sendable () -> Void
    ) {
        body.onTermination = { [weak self] _ in self?.wake(.closing) }
        let task = Task(executorPreference: executor) {
            await self.run(
                from: cursor, feed: feed, configuration: configuration, authorized: authorized)
            ended()
        }
        state.withLock { $0.task = task }
    }

    func wake(_ reasons: Wake) {
        let woken = state.withLock { state -> (CheckedContinuation<Wake, Never>, Wake)? in
            state.pending.formUnion(reasons)
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            defer { state.pending = [] }
            return (waiter, state.pending)
        }
        if let (waiter, reasons) = woken { waiter.resume(returning: reasons) }
    }

    /// The hub's heartbeat: a heartbeat wakeup, or, for a stream whose client has taken
    /// nothing for `stallLimit`, the end (its task is cancelled out of its write).
    func tick(at now: ContinuousClock.Instant, stallLimit: Duration) {
        let (stalled, task) = state.withLock { state in
            (state.writingSince.map { now - $0 >= stallLimit } ?? false, state.task)
        }
        if stalled { task?.cancel() } else { wake(.heartbeat) }
    }

    private func next() async -> Wake {
        await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
            let ready = state.withLock { state -> Wake? in
                guard state.pending.isEmpty else {
                    defer { state.pending = [] }
                    return state.pending
                }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func run(
        from start: Int64, feed: ChangeFeed, configuration: ChangeFeedConfiguration,
        authorized: @Sendable () async -> Bool
    ) async {
        // Ended by `finish`: what is buffered still goes out, then the chunked body ends
        // cleanly, and the client reconnects with its last event's ID.
        defer { body.finish() }
        var cursor = start
        let retry = SessionLifetime.milliseconds(configuration.reconnectDelay)
        do throws(StreamingBodyError) {
            // The first block says where the stream starts (an `id:` without `data:` sets
            // the client's last event ID and dispatches nothing), so that a client that
            // loses the connection before the first change still resumes without a gap.
            try await send(Array("retry: \(retry)\nid: \(start)\n\n".utf8))
            var reasons: Wake = .changed
            while !reasons.contains(.closing) {
                // The token may have been revoked since the last look: nothing more for it.
                guard await authorized() else { return }
                var sent = false
                if reasons.contains(.changed) {
                    while true {
                        // A cursor that expired meanwhile, or a store that fails: the stream
                        // ends, and the client's reconnection learns which (410, 5xx).
                        guard let page = await feed.streamPage(account: account, after: cursor)
                        else { return }
                        for change in page.changes {
                            try await send(change.event)
                            sent = true
                        }
                        cursor = page.cursor
                        if !page.hasMore { break }
                    }
                }
                if reasons.contains(.heartbeat), !sent { try await send(Self.heartbeat) }
                reasons = await next()
            }
        } catch {
            // The client left, or was too slow and was dropped: nothing more to send.
        }
    }

    /// Writes with the body's back-pressure, recording how long the write waits.
    private func send(_ bytes: [UInt8]) async throws(StreamingBodyError) {
        if body.tryWrite(bytes) == .written { return }
        state.withLock { $0.writingSince = .now }
        defer { state.withLock { $0.writingSince = nil } }
        try await body.write(bytes)
    }
}
