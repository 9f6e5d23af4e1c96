import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: keep-alive, a pool of worker threads each
/// with its own poll loop, request, connection and time limits, streamed responses,
/// and graceful shutdown.
///
/// A request's body is read in full before the responder is called. The responder runs
/// in a task, inline on the worker thread until it first waits; then the connection is
/// suspended and resumed with the response, so a slow responder holds no thread that
/// serves others. A response with a ``StreamingBody`` is sent while its producer writes it.
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
    let state: DaemonState
    /// Issue 13: the listening socket, which names this server's TLS credentials.
    let listeningSocket: Int32
    private let daemon: Mutex<OpaquePointer?>

    public init(configuration: ServerConfiguration, responder: any HTTPResponder)
        throws(HTTPServerError)
    {
        let socket = try ListeningSocket(
            host: configuration.host, port: configuration.port, backlog: configuration.backlog)
        let state = DaemonState(configuration: configuration, responder: responder)
        let statePointer = Unmanaged.passUnretained(state).toOpaque()

        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(socket.descriptor), ptr_value: nil),
            MHD_OptionItem(
                option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds,
                ptr_value: nil),
            // Room for the longest request target and all headers, so that our own
            // checks (414, 431) decide. Not more: libmicrohttpd zeroes the whole
            // pool between requests, a cost every request pays.
            MHD_OptionItem(
                option: .CONNECTION_MEMORY_LIMIT,
                value: configuration.maxRequestTargetBytes + configuration.maxHeaderBytes
                    + 16 * 1024,
                ptr_value: nil),
            MHD_OptionItem(
                option: .URI_LOG_CALLBACK, value: unsafeBitCast(requestStarted, to: Int.self),
                ptr_value: statePointer),
            MHD_OptionItem(
                option: .NOTIFY_COMPLETED, value: unsafeBitCast(requestCompleted, to: Int.self),
                ptr_value: statePointer),
            MHD_OptionItem(
                option: .LISTEN_BACKLOG_SIZE, value: Int(configuration.backlog), ptr_value: nil),
            MHD_OptionItem(
                option: .NOTIFY_CONNECTION, value: unsafeBitCast(connectionChanged, to: Int.self),
                ptr_value: statePointer),
            // The exact global limit is ours (the accept policy); libmicrohttpd's, which it
            // splits between the workers, only needs to be no lower. Its default is 1,020.
            MHD_OptionItem(
                option: .CONNECTION_LIMIT,
                value: configuration.maxConnections + configuration.threads, ptr_value: nil),
            MHD_OptionItem(
                option: .PER_IP_CONNECTION_LIMIT, value: configuration.maxConnectionsPerAddress,
                ptr_value: nil),
        ]
        if configuration.threads > 1 {
            options.append(
                MHD_OptionItem(
                    option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
        }
        // Issue 13: HTTPS (HTTPServer+TLS.swift).
        let tls: (flag: UInt32, options: [MHD_OptionItem], priorities: UnsafeMutablePointer<CChar>)?
        do {
            tls = try Self.tlsOptions(configuration, socket: socket.descriptor)
        } catch {
            state.executor.close()
            state.watchdog.stop()
            state.lingeringCloser.stop()
            close(socket.descriptor)
            throw error
        }
        options += tls?.options ?? []
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

        // poll(), not epoll: libmicrohttpd 0.9.75's epoll loop stalls for seconds once
        // 128 or more connections are ready at the same time (measured: 40,000 req/s
        // at 64 connections, under 300 at 128), and it leaves a connection whose memory
        // pool overflowed open until the idle timeout. Its poll loop has neither defect
        // and costs the same per request here. ITC wakes the workers at once on stop;
        // turbo skips per-connection syscalls a keep-alive server does not need;
        // suspend/resume parks a streamed response's connection while it waits for bytes.
        let flags =
            MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_TURBO.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | (tls?.flag ?? 0)
        let started = options.withUnsafeMutableBufferPointer { items in
            withVaList([
                MHD_OPTION.ARRAY.rawValue, OpaquePointer(items.baseAddress!),
                MHD_OPTION.END.rawValue,
            ]) { arguments in
                MHD_start_daemon_va(
                    flags, 0, acceptConnection, statePointer, handleRequest, statePointer,
                    arguments)
            }
        }
        free(tls?.priorities)  // issue 13: libmicrohttpd parsed it while starting
        guard let started else {
            TLSCredentialRegistry.remove(listeningOn: socket.descriptor)
            state.executor.close()
            state.watchdog.stop()
            state.lingeringCloser.stop()
            close(socket.descriptor)
            throw .daemonFailed
        }
        self.port = socket.port
        self.listeningSocket = socket.descriptor
        self.state = state
        self.daemon = Mutex(started)
    }

    /// Stops accepting connections, lets requests in flight finish (up to the
    /// configured grace period), then stops the worker threads and closes the
    /// listening socket. Safe to call twice.
    public func shutdown() {
        daemon.withLock { daemon in
            guard let running = daemon else { return }
            daemon = nil
            // Refuse new connections through the accept policy rather than
            // MHD_quiesce_daemon: in libmicrohttpd 0.9.75 quiescing an epoll daemon
            // races with its worker threads and can abort the process.
            state.draining.store(true, ordering: .releasing)
            let deadline = ContinuousClock.now + state.configuration.shutdownGracePeriod
            while state.requestsInFlight.load(ordering: .acquiring) > 0
                || state.deferred.count > 0,
                ContinuousClock.now < deadline
            {
                usleep(2_000)
            }
            // libmicrohttpd must not stop with a connection suspended. Responders still
            // running past the grace period: their clients get a 503, and their
            // connections are resumed. Streams still running end now, which resumes theirs.
            if state.deferred.stopAll(answering: .plain(.serviceUnavailable)) > 0 {
                // Time for the workers to send those 503s before the sockets close.
                let sent = ContinuousClock.now + .seconds(1)
                while state.requestsInFlight.load(ordering: .acquiring) > 0,
                    ContinuousClock.now < sent
                {
                    usleep(2_000)
                }
            }
            state.streams.stopAll()
            state.watchdog.stop()
            state.lingeringCloser.stop()
            MHD_stop_daemon(running)
            TLSCredentialRegistry.remove(listeningOn: listeningSocket)
            state.executor.close()
        }
    }

    /// The number of requests begun and not yet answered.
    public var requestsInFlight: Int { state.requestsInFlight.load(ordering: .acquiring) }

    /// The number of connections open now.
    public var openConnections: Int { state.openConnections.load(ordering: .acquiring) }

    // Issue 13 (operations): figures for ServerMetrics.
    /// Connections closed at accept (over ``ServerConfiguration/maxConnections``, or while
    /// draining) since the start. The per-address limit is libmicrohttpd's and not counted.
    public var refusedConnections: Int { state.refusedConnections.load(ordering: .relaxed) }
    /// Streamed responses being sent now.
    public var openStreams: Int { state.streams.count }

    deinit {
        shutdown()
    }
}

/// What the C callbacks share: passed to libmicrohttpd as an unretained pointer,
/// kept alive by the ``HTTPServer`` that owns the daemon.
final class DaemonState: Sendable {
    let configuration: ServerConfiguration
    let responder: any HTTPResponder
    let requestsInFlight = Atomic<Int>(0)
    let openConnections = Atomic<Int>(0)
    /// Issue 13: connections the accept policy refused, for ServerMetrics.
    let refusedConnections = Atomic<Int>(0)
    /// Requests whose responders run in tasks.
    let deferred = DeferredResponseRegistry()
    /// Where those tasks run.
    let executor: ResponderExecutor
    /// Set when shutting down: new connections are closed as soon as they arrive.
    let draining = Atomic<Bool>(false)
    let watchdog: ConnectionWatchdog
    let streams = StreamRegistry()
    let lingeringCloser: LingeringCloser

    init(configuration: ServerConfiguration, responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
        executor = ResponderExecutor(threads: configuration.responderThreads)
        let watchdog = ConnectionWatchdog(configuration: configuration)
        self.watchdog = watchdog
        self.lingeringCloser = LingeringCloser(
            maxDiscardedBytes: configuration.maxDiscardedBodyBytes,
            duration: configuration.lingerDuration, now: { watchdog.now })
    }
}
