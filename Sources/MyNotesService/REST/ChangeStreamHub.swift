import BoundedExecution
import HTTPCore
import Locking
import MyNotesDomain

/// The open change streams of this server, by account: told by the store of every
/// committed write (on PostgreSQL, every server's), it wakes that account's streams. It
/// bounds streams per account and in all, beats every stream's heartbeat from one timer,
/// drops streams whose clients stopped reading, and ends every stream when the server
/// closes.
///
/// ```swift
/// let hub = ChangeStreamHub(feed: feed, configuration: ChangeFeedConfiguration())
/// let (stream, executor) = try hub.open(account: account.id, body: body)  // 429, 503 past limits
/// hub.close()  // at shutdown: every stream ends cleanly
/// ```
package final class ChangeStreamHub: Sendable {
    private struct State {
        var streams: [Int64: [ObjectIdentifier: ChangeStream]] = [:]
        var count = 0
        var closed = false
        var ticker: Task<Void, Never>?
        /// Where the streams' tasks run, made with the first stream.
        var executor: BoundedExecutor?
    }

    private enum Admission {
        case admitted
        case accountFull
        case serverFull
    }

    let configuration: ChangeFeedConfiguration
    private let state = Lock(State())

    package init(feed: ChangeFeed, configuration: ChangeFeedConfiguration) {
        self.configuration = configuration
        feed.observe { [weak self] signal in self?.deliver(signal) }
    }

    /// Streams open now.
    var openStreams: Int { state.withLock { $0.count } }

    /// Registers a new stream of `account` writing into `body`, whose task is to run on
    /// the hub's executor; refused past the limits or once the hub is closed.
    func open(account: Int64, body: StreamingBody) throws(RESTProblem)
        -> (ChangeStream, executor: BoundedExecutor)
    {
        let stream = ChangeStream(account: account, body: body)
        let limits = configuration
        let admission = state.withLock { state -> (Admission, BoundedExecutor?) in
            if state.closed || state.count >= limits.maximumStreams { return (.serverFull, nil) }
            if state.streams[account, default: [:]].count >= limits.streamsPerAccount {
                return (.accountFull, nil)
            }
            state.streams[account, default: [:]][ObjectIdentifier(stream)] = stream
            state.count += 1
            // Threads of its own, not Swift's cooperative pool: whatever blocks that pool
            // in the process cannot hold back a change on its way to a client.
            let executor =
                state.executor
                ?? BoundedExecutor(
                    name: "change-streams", limits: ExecutorLimits(threads: 1, queueLimit: 1))
            state.executor = executor
            if state.ticker == nil { state.ticker = startTicker(on: executor) }
            return (.admitted, executor)
        }
        switch admission {
        case (.admitted, let executor?): return (stream, executor)
        case (.admitted, nil), (.serverFull, _):
            throw .streamsFull(retryAfter: limits.reconnectDelay)
        case (.accountFull, _):
            throw .tooManyStreams(limits.streamsPerAccount, retryAfter: limits.reconnectDelay)
        }
    }

    /// Forgets a stream that has ended.
    func remove(_ stream: ChangeStream) {
        state.withLock { state in
            guard
                state.streams[stream.account]?.removeValue(forKey: ObjectIdentifier(stream))
                    != nil
            else { return }
            state.count -= 1
            if state.streams[stream.account]?.isEmpty == true {
                state.streams[stream.account] = nil
            }
        }
    }

    /// Ends every stream (each sends what it holds, then ends its body) and refuses new
    /// ones: the server is shutting down, and clients reconnect to another.
    package func close() {
        let (streams, ticker) = state.withLock { state in
            state.closed = true
            defer { state.ticker = nil }
            return (state.streams.values.flatMap(\.values), state.ticker)
        }
        ticker?.cancel()
        for stream in streams { stream.wake(.closing) }
    }

    private func deliver(_ signal: ChangeSignal) {
        let streams = state.withLock { state -> [ChangeStream] in
            switch signal {
            case .account(let account): Array(state.streams[account]?.values ?? [:].values)
            case .anyAccount: state.streams.values.flatMap(\.values)
            }
        }
        for stream in streams { stream.wake(.changed) }
    }

    /// One timer for every stream's heartbeat (and the check for stalled clients).
    private func startTicker(on executor: BoundedExecutor) -> Task<Void, Never> {
        let interval = configuration.heartbeat
        let stallLimit = configuration.stallLimit
        return Task(executorPreference: executor) { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                let streams = state.withLock { $0.streams.values.flatMap(\.values) }
                let now = ContinuousClock.now
                for stream in streams { stream.tick(at: now, stallLimit: stallLimit) }
            }
        }
    }
}
