// Built-in HTTPS, OpenSSL on h2o's event loop (TLSContext).
extension HTTPServer {
    /// Reads the certificate and key files again and presents them from the next
    /// handshake on; connections already open are not touched. On failure (a file
    /// missing, a key that does not match, an expired certificate) the server keeps its
    /// current certificate.
    ///
    /// ```swift
    /// try server.reloadTLS()  // after certbot renewed the files, on SIGHUP
    /// ```
    public func reloadTLS() throws(HTTPServerError) {
        try (state.tls as? TLSContext)?.reload()
    }

    /// Whether this server speaks TLS.
    public var usesTLS: Bool { state.tls != nil }

    /// The OpenSSL context for `configuration.tls`, its files read and checked; `nil` for
    /// plain HTTP.
    static func makeTLSAcceptor(
        _ configuration: ServerConfiguration
    ) throws(HTTPServerError) -> (any TLSAcceptor)? {
        guard let tls = configuration.tls else { return nil }
        return try TLSContext(tls)
    }
}
