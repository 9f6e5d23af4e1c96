// Issue 13: built-in HTTPS. PLACEHOLDER on branch h-h2o while the TLS work moves HTTPS onto
// h2o and OpenSSL (branch h-tls owns this file and replaces it).
extension HTTPServer {
    /// Reads the certificate and key files again and presents them from the next
    /// handshake on; connections already open are not touched.
    ///
    /// ```swift
    /// try server.reloadTLS()  // after certbot renewed the files, on SIGHUP
    /// ```
    public func reloadTLS() throws(HTTPServerError) {
        guard state.configuration.tls != nil else { return }
        throw .tls(reason: "HTTPS is not available on this build yet")
    }

    /// Whether this server speaks TLS.
    public var usesTLS: Bool { state.tls != nil }

    /// The OpenSSL contexts for `configuration.tls`; `nil` for plain HTTP.
    static func makeTLSAcceptor(
        _ configuration: ServerConfiguration
    ) throws(HTTPServerError) -> (any TLSAcceptor)? {
        guard configuration.tls != nil else { return nil }
        throw .tls(reason: "HTTPS is not available on this build yet")
    }
}
