/// HTTPS for an ``HTTPServer``: a certificate chain and its key, PEM files read at start
/// and again by ``HTTPServer/reloadTLS()``, and the protocol versions and ciphers allowed.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.tls = TLSConfiguration(
///     certificateFile: "/etc/mynotes/fullchain.pem", keyFile: "/etc/mynotes/key.pem")
/// ```
public struct TLSConfiguration: Sendable, Equatable {
    /// The server's certificate, then its intermediates, in PEM.
    public var certificateFile: String
    /// The certificate's private key in PEM (unencrypted).
    public var keyFile: String
    /// A GnuTLS priority string; the default is ``modern``.
    public var priorities: String

    public init(certificateFile: String, keyFile: String, priorities: String = Self.modern) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.priorities = priorities
    }

    /// TLS 1.3 and 1.2 only, AEAD ciphers only (AES-GCM, ChaCha20-Poly1305), forward-secret
    /// key exchange only (ECDHE, and TLS 1.3's own), the server's order preferred:
    /// Mozilla's "intermediate" profile. TLS 1.0 and 1.1 clients are refused.
    public static let modern =
        "SECURE128:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM:"
        + "+CHACHA20-POLY1305:-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:"
        + "-SIGN-RSA-SHA1:-SIGN-DSA-SHA1:%SERVER_PRECEDENCE"
}
