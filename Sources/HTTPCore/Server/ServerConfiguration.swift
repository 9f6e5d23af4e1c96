import Foundation

/// How an ``HTTPServer`` listens and what it accepts.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0  // any free port; read it back from `HTTPServer.port`
/// configuration.threads = 4
/// ```
public struct ServerConfiguration: Sendable {
    /// The address to bind: an IP address or a host name that resolves to one.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one.
    public var port = 8080
    /// Worker threads, each running its own poll loop over its share of connections.
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// Threads that run responders once they have waited (for the store, for a hash):
    /// application work, apart from the threads that serve connections.
    public var responderThreads = ProcessInfo.processInfo.activeProcessorCount
    /// The largest request body accepted; a larger one is answered 413.
    public var maxBodyBytes = 1 << 20
    /// The largest request target (path and query); a longer one is answered 414.
    public var maxRequestTargetBytes = 64 << 10
    /// The most bytes all header fields may take together; more is answered 431.
    public var maxHeaderBytes = 16 << 10
    /// Seconds a connection may stay silent before it is closed.
    public var idleTimeoutSeconds = 30
    /// How long a graceful shutdown waits for requests in flight.
    public var shutdownGracePeriod = Duration.seconds(10)
    /// The listen queue length.
    public var backlog: Int32 = 1024

    public init() {}
}
