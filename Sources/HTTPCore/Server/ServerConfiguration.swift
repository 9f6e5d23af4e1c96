import BoundedExecution
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How an ``HTTPServer`` listens, what it accepts, and how long it waits.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0  // any free port; read it back from `HTTPServer.port`
/// configuration.threads = 4
/// configuration.maxConnectionsPerAddress = 64
/// ```
///
/// The defaults bound what one client can hold: connections (``maxConnections``,
/// ``maxConnectionsPerAddress``), time (``requestHeadTimeout``, ``requestBodyTimeout``,
/// ``idleTimeoutSeconds``) and memory (the size limits).
public struct ServerConfiguration: Sendable {
    /// The address to bind: an IP address or a host name that resolves to one.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one.
    public var port = 8080
    /// Worker threads, each running its own event loop (epoll) over the connections it accepts;
    /// by default one per core this process may run on (``UsableCores``).
    public var threads = UsableCores.count
    /// Threads that run responders once they have waited (for the store, for a hash):
    /// application work, apart from the threads that serve connections.
    public var responderThreads = UsableCores.count
    /// The largest request body accepted; a larger one is answered 413.
    public var maxBodyBytes = 1 << 20
    /// How much of a refused request's body is still read, and thrown away, so that a
    /// client that sends its whole body before it reads (most do) gets its 413 instead of
    /// a reset connection: after a refusal the server shuts its side, then reads until
    /// the client closes, this many bytes, or ``lingerDuration`` (nginx's lingering
    /// close). A chunked body that grows over ``maxBodyBytes`` is read to its end, up to
    /// this many bytes more, and then answered.
    public var maxDiscardedBodyBytes = 4 << 20
    /// How long a refused client may go on sending what is thrown away; see
    /// ``maxDiscardedBodyBytes``.
    public var lingerDuration = Duration.seconds(10)
    /// The largest request target (path and query); a longer one is answered 414.
    public var maxRequestTargetBytes = 64 << 10
    /// The most bytes all header fields may take together; more is answered 431.
    public var maxHeaderBytes = 16 << 10
    /// The most connections open at once; one more is closed as soon as it is accepted.
    /// Each costs a file descriptor, so the default stays below the process's limit.
    public var maxConnections = ServerConfiguration.defaultMaxConnections
    /// The most connections open at once from one IP address; one more is closed as soon
    /// as it is accepted. It keeps one client from taking every connection, while leaving
    /// room for the many users behind one NAT (a browser opens up to 6 per host) and for
    /// one load balancer or benchmark holding a thousand keep-alive connections; a client
    /// that only trickles bytes loses its connections at ``requestHeadTimeout``.
    public var maxConnectionsPerAddress = 1_024
    /// How long a client may take to send a complete request head (request line and
    /// header fields), counted from its connection, or for a later request on a kept-alive
    /// connection from the previous answer plus ``idleTimeoutSeconds``. However slowly the
    /// bytes trickle in, a connection still without a complete head then is closed.
    public var requestHeadTimeout = Duration.seconds(10)
    /// How long a client may take to send a request's body, counted from its complete head;
    /// the connection is closed when it is not all in by then. 60 s lets 1 MiB come in at
    /// 17 KB/s.
    public var requestBodyTimeout = Duration.seconds(60)
    /// Seconds a connection may stay silent before it is closed: between requests on a
    /// kept-alive connection, and while a request or its answer is under way.
    public var idleTimeoutSeconds = 30
    /// How long a graceful shutdown waits for requests in flight.
    public var shutdownGracePeriod = Duration.seconds(10)
    /// The `Host` values answered; others are refused with 421 before their body is read
    /// (DNS rebinding). Every value by default; a server that browsers can reach should
    /// narrow it to its own names.
    public var allowedHosts = AllowedHosts.any
    /// The listen queue length.
    public var backlog: Int32 = 1024
    /// The clock the request deadlines are measured on; tests pass one they advance.
    public var clock: any Clock<Duration> = ContinuousClock()
    /// HTTPS with this certificate and key; `nil` for plain HTTP.
    public var tls: TLSConfiguration?

    public init() {}

    /// 4,096 connections, or fewer when the process may not open that many files: the
    /// soft `RLIMIT_NOFILE` less 128 descriptors for the database, logs and listeners.
    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0,
            limit.rlim_cur != rlim_t.max
        else { return 4_096 }
        return max(16, min(4_096, Int(clamping: limit.rlim_cur) - 128))
    }

    /// Raises this process's soft `RLIMIT_NOFILE` to its hard limit, as a server that
    /// holds a socket per connection should: many systems start programs with a soft
    /// limit of 1,024, which would cap ``defaultMaxConnections`` far below what the
    /// machine allows. Returns the soft limit now in force.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
