/// Where each event loop gets the OpenSSL context for a connection it accepts, when the
/// server speaks HTTPS (Server/TLS builds it from ``ServerConfiguration/tls``).
///
/// Read at every accept, so that a reload (a new certificate) is a swap of what
/// ``sslContext`` returns: connections already open keep the context they handshook with.
protocol TLSAcceptor: Sendable {
    /// The `SSL_CTX *` a new connection handshakes with (h2o's `h2o_socket_ssl_handshake`),
    /// kept alive by the acceptor while connections may use it. Called on the loop
    /// threads, concurrently: cheap and thread-safe.
    var sslContext: OpaquePointer? { get }
}
