import CMicroHTTPD
import Foundation

// Issue 13: built-in HTTPS.
extension HTTPServer {
    /// Reads the certificate and key files again and presents them from the next
    /// handshake on; connections already open are not touched. On failure (a file
    /// missing, a key that does not match) the server keeps its current certificate.
    ///
    /// ```swift
    /// try server.reloadTLS()  // after certbot renewed the files, on SIGHUP
    /// ```
    public func reloadTLS() throws(HTTPServerError) {
        guard let tls = state.configuration.tls else { return }
        TLSCredentialRegistry.set(try TLSCredentials(tls), listeningOn: listeningSocket)
    }

    /// Whether this server speaks TLS.
    public var usesTLS: Bool { state.configuration.tls != nil }

    /// Whether this libmicrohttpd was built with TLS (Debian's is).
    public static var supportsTLS: Bool { MHD_is_feature_supported(.FEATURE_TLS) == .YES }

    /// The libmicrohttpd flag and options for `configuration.tls`, with the credentials
    /// registered for `socket`; `nil` when the server speaks plain HTTP. The priority
    /// string is copied by libmicrohttpd while it starts; the caller frees it after.
    static func tlsOptions(
        _ configuration: ServerConfiguration, socket: Int32
    ) throws(HTTPServerError) -> (
        flag: UInt32, options: [MHD_OptionItem], priorities: UnsafeMutablePointer<CChar>
    )? {
        guard let tls = configuration.tls else { return nil }
        guard supportsTLS else { throw .tls(reason: "this libmicrohttpd has no TLS support") }
        TLSCredentialRegistry.set(try TLSCredentials(tls), listeningOn: socket)
        let priorities = strdup(tls.priorities)!
        let callback = unsafeBitCast(
            TLSCredentialRegistry.retrieve, to: UnsafeMutableRawPointer.self)
        return (
            MHD_USE_TLS.rawValue,
            [
                MHD_OptionItem(option: .HTTPS_CERT_CALLBACK, value: 0, ptr_value: callback),
                MHD_OptionItem(
                    option: .HTTPS_PRIORITIES, value: 0,
                    ptr_value: UnsafeMutableRawPointer(priorities)),
            ],
            priorities
        )
    }
}
