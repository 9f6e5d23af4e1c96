/// Where each event loop gets the OpenSSL context for a connection it accepts, when the
/// server speaks HTTPS (Server/TLS builds it from ``ServerConfiguration/tls``).
///
/// Asked at every accept, so that a reload (a new certificate) is a swap of the context it
/// lends: connections already open keep the one they handshook with.
protocol TLSAcceptor: Sendable {
    /// Calls `body` with the `SSL_CTX *` a new connection handshakes with, kept alive (an
    /// OpenSSL reference) for the call: a reload on another thread may drop the acceptor's
    /// own reference meanwhile. The `SSL` that `h2o_socket_ssl_handshake` makes from it
    /// holds a reference of its own, so the connection may outlive the call. Called on the
    /// loop threads, concurrently.
    func withSSLContext(_ body: (OpaquePointer) -> Void)
}
