import Foundation
import Locking

/// An HTTP/1.1 server on h2o's event loop library: keep-alive, one epoll loop per worker
/// thread, request, connection and time limits, streamed responses, and graceful shutdown.
///
/// A request's body is read in full before the responder is called. The responder runs in
/// a task, inline on the loop thread until it first waits; its answer then comes back to
/// the loop through a queue, so a slow responder holds no thread that serves others. A
/// response with a ``StreamingBody`` is sent while its producer writes it.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0
/// let server = try HTTPServer(configuration: configuration, responder: router)
/// print("listening on port \(server.port)")
/// server.shutdown()
/// ```
public final class HTTPServer: Sendable {
    /// The port the server listens on (the chosen one when configured with 0).
    public let port: Int
    let state: ServerState
    /// The listening socket; the loops watch duplicates of it.
    let listeningSocket: Int32
    private let loops: Lock<[EventLoop]?>

    public init(configuration: ServerConfiguration, responder: any HTTPResponder)
        throws(HTTPServerError)
    {
        // h2o writes to sockets with writev(2), which raises SIGPIPE when the client has
        // gone; that must be an error on the write, not the end of the process.
        signal(SIGPIPE, SIG_IGN)
        let socket = try ListeningSocket(
            host: configuration.host, port: configuration.port, backlog: configuration.backlog)
        // HTTPS (Server/TLS); `nil` for plain HTTP.
        let tls: (any TLSAcceptor)?
        do {
            tls = try Self.makeTLSAcceptor(configuration)
        } catch {
            close(socket.descriptor)
            throw error
        }
        let state = ServerState(configuration: configuration, responder: responder, tls: tls)
        let loops = (0..<max(1, configuration.threads)).map {
            EventLoop(state: state, listening: socket.descriptor, index: $0)
        }
        self.port = socket.port
        self.listeningSocket = socket.descriptor
        self.state = state
        self.loops = Lock(loops)
    }

    /// Stops accepting connections, lets requests in flight finish (up to the
    /// configured grace period), then stops the loops and closes the listening socket.
    /// Safe to call twice.
    public func shutdown() {
        loops.withLock { loops in
            guard let running = loops else { return }
            loops = nil
            // New connections are closed as soon as they are accepted from now on; answers
            // say `Connection: close`.
            state.draining.store(true, ordering: .releasing)
            let deadline = ContinuousClock.now + state.configuration.shutdownGracePeriod
            while state.requestsInFlight.load(ordering: .acquiring) > 0
                || state.deferred.count > 0,
                ContinuousClock.now < deadline
            {
                usleep(2_000)
            }
            // Responders still running past the grace period: their clients get a 503.
            if state.deferred.stopAll(answering: .plain(.serviceUnavailable)) > 0 {
                // Time for the loops to send those 503s before the sockets close.
                let sent = ContinuousClock.now + .seconds(1)
                while state.requestsInFlight.load(ordering: .acquiring) > 0,
                    ContinuousClock.now < sent
                {
                    usleep(2_000)
                }
            }
            // Streams still running end now; their producers are told so.
            state.streams.stopAll()
            for loop in running { loop.stop() }
            state.watchdog.stop()
            state.lingeringCloser.stop()
            close(listeningSocket)
            state.executor.close()
        }
    }

    /// The number of requests begun and not yet answered.
    public var requestsInFlight: Int { state.requestsInFlight.load(ordering: .acquiring) }

    /// The number of connections open now.
    public var openConnections: Int { state.openConnections.load(ordering: .acquiring) }

    // Figures for ServerMetrics (/metrics).
    /// Connections closed at accept (over ``ServerConfiguration/maxConnections`` or
    /// ``ServerConfiguration/maxConnectionsPerAddress``, or while draining) since the start.
    public var refusedConnections: Int { state.refusedConnections.load(ordering: .relaxed) }
    /// Streamed responses being sent now.
    public var openStreams: Int { state.streams.count }

    deinit {
        shutdown()
    }
}
