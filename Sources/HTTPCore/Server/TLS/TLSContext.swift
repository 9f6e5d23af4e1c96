import CH2O
import Locking

/// The OpenSSL context (`SSL_CTX`) new TLS connections are accepted with, built from a
/// ``TLSConfiguration``: its certificate and key, TLS 1.2 and 1.3 only, forward-secret AEAD
/// ciphers in the server's order, no compression, no renegotiation, ALPN offering
/// `http/1.1` alone.
///
/// ``reload()`` builds a new context from the files and swaps it in for the handshakes that
/// follow. The old one is not freed here but released: every connection's `SSL` holds its
/// own reference to the context it was accepted with (OpenSSL counts them), so connections
/// already open keep their certificate, and the old context goes with the last of them.
final class TLSContext: TLSAcceptor {
    let configuration: TLSConfiguration
    private let current: Lock<ContextReference>

    /// Reads and checks the files; throws, saying which file and why, when they will not do.
    init(_ configuration: TLSConfiguration) throws(HTTPServerError) {
        self.configuration = configuration
        self.current = Lock(try Self.build(configuration))
    }

    deinit {
        current.withLock { SSL_CTX_free($0.context) }
    }

    /// Reads the files again and, when they are good, uses them from the next handshake on;
    /// when not, throws and the current certificate stays.
    func reload() throws(HTTPServerError) {
        let fresh = try Self.build(configuration)
        let old = current.withLock { current in
            defer { current = fresh }
            return current
        }
        SSL_CTX_free(old.context)
    }

    /// `body` with the context a handshake starting now is to use (an `SSL_CTX*`), kept
    /// alive for the call even if a reload swaps it meanwhile. Whatever `body` makes with
    /// `SSL_new` holds its own reference and may outlive the call.
    func withSSLContext(_ body: (OpaquePointer) -> Void) {
        let reference = current.withLock { current in
            SSL_CTX_up_ref(current.context)
            return current
        }
        defer { SSL_CTX_free(reference.context) }
        body(reference.context)
    }

    /// An `SSL_CTX*`, handed between threads under the mutex; OpenSSL's reference count
    /// and its own locking make that safe.
    private struct ContextReference: @unchecked Sendable {
        let context: OpaquePointer
    }

    /// Mozilla's "intermediate" profile without its finite-field DHE: TLS 1.2's AEAD
    /// ciphers with ECDHE, in the server's order.
    static let tls12Ciphers = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")
    /// TLS 1.3's suites (all AEAD, all forward-secret).
    static let tls13Suites =
        "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"
    static let groups = "X25519:P-256:P-384"

    private static func build(_ configuration: TLSConfiguration) throws(HTTPServerError)
        -> ContextReference
    {
        let identity = try TLSIdentity(configuration)
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw .tls(reason: "OpenSSL cannot make a context (\(errorReason(or: "no memory")))")
        }
        func require(_ done: Int32, _ what: String) throws(HTTPServerError) {
            guard done != 1 else { return }
            SSL_CTX_free(context)
            throw .tls(reason: "OpenSSL refused \(what) (\(errorReason(or: "no reason given")))")
        }
        ch2o_tls_harden(context)
        ch2o_tls_offer_http1_only(context)
        try require(ch2o_tls_require_tls12(context), "TLS 1.2 as the minimum")
        try require(SSL_CTX_set_cipher_list(context, tls12Ciphers), "the TLS 1.2 ciphers")
        try require(SSL_CTX_set_ciphersuites(context, tls13Suites), "the TLS 1.3 suites")
        try require(ch2o_tls_set_groups(context, groups), "the key exchange groups")
        try require(SSL_CTX_use_certificate(context, identity.certificate), "the certificate")
        for intermediate in identity.intermediates {
            try require(
                ch2o_tls_add_chain_certificate(context, intermediate), "an intermediate certificate"
            )
        }
        try require(SSL_CTX_use_PrivateKey(context, identity.key), "the key")
        return ContextReference(context: context)
    }

    /// OpenSSL's reason for the oldest error on this thread's queue (which it empties), or
    /// `fallback` when there is none.
    static func errorReason(or fallback: String) -> String {
        ch2o_tls_take_error_reason().map { String(cString: $0) } ?? fallback
    }
}
