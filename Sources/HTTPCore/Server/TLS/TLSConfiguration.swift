/// HTTPS for an ``HTTPServer``: a certificate chain and its key, PEM files read at start
/// and again by ``HTTPServer/reloadTLS()``. The protocols and ciphers are not options: TLS
/// 1.2 and 1.3 only, forward-secret AEAD ciphers only, in the server's order (Mozilla's
/// "intermediate" profile without finite-field DHE); TLS 1.0 and 1.1 clients are refused.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.tls = TLSConfiguration(
///     certificateFile: "/etc/example/fullchain.pem", keyFile: "/etc/example/key.pem")
/// ```
public struct TLSConfiguration: Sendable, Equatable {
    /// The server's certificate, then its intermediates, in PEM.
    public var certificateFile: String
    /// The certificate's private key in PEM (unencrypted).
    public var keyFile: String

    public init(certificateFile: String, keyFile: String) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
