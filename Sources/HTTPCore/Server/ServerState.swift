import Synchronization

/// What the event loops and connections of one ``HTTPServer`` share: its configuration,
/// responder and counters, and the parts that outlive a single connection.
final class ServerState: Sendable {
    let configuration: ServerConfiguration
    let responder: any HTTPResponder
    /// HTTPS: where each accepted connection's OpenSSL context comes from; `nil` for HTTP.
    let tls: (any TLSAcceptor)?
    let requestsInFlight = Atomic<Int>(0)
    let openConnections = Atomic<Int>(0)
    /// Connections refused at accept, for ServerMetrics.
    let refusedConnections = Atomic<Int>(0)
    /// The connection limits, checked at accept.
    let limiter: ConnectionLimiter
    /// Requests whose responders run in tasks.
    let deferred = DeferredResponseRegistry()
    /// Where those tasks run.
    let executor: ResponderExecutor
    /// Set when shutting down: new connections are closed as soon as they arrive.
    let draining = Atomic<Bool>(false)
    let watchdog: ConnectionWatchdog
    let streams = StreamRegistry()
    let lingeringCloser: LingeringCloser

    init(
        configuration: ServerConfiguration, responder: any HTTPResponder,
        tls: (any TLSAcceptor)?
    ) {
        self.configuration = configuration
        self.responder = responder
        self.tls = tls
        limiter = ConnectionLimiter(
            maxTotal: configuration.maxConnections,
            maxPerAddress: configuration.maxConnectionsPerAddress)
        executor = ResponderExecutor(threads: configuration.responderThreads)
        let watchdog = ConnectionWatchdog(configuration: configuration)
        self.watchdog = watchdog
        self.lingeringCloser = LingeringCloser(
            maxDiscardedBytes: configuration.maxDiscardedBodyBytes,
            duration: configuration.lingerDuration, now: { watchdog.now })
    }
}
