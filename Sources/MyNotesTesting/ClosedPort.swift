import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port that refuses every connection for as long as this value lives.
///
/// The port is bound and never listened on: a connection to it is refused at once, and no
/// other test's server can take the port in the meantime (a port that was merely released
/// can be, and then "nothing answers there" gets an answer).
///
/// ```swift
/// let closed = ClosedPort()
/// defer { withExtendedLifetime(closed) {} }   // Swift may otherwise free it after `url`
/// let client = NotesClient(server: closed.url)   // every request: cannot connect
/// ```
public final class ClosedPort: Sendable {
    public let port: Int
    private let descriptor: Int32

    public init() {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        port = LoopbackAddress.bind(descriptor)
    }

    /// `http://127.0.0.1:PORT`
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit {
        close(descriptor)
    }
}
