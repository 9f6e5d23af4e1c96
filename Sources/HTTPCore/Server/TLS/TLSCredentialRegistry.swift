import CGnuTLS
import CMicroHTTPD
import Synchronization

/// Which credentials each TLS server presents, by its listening socket. GnuTLS's
/// certificate callback gets only the session; its pointer is libmicrohttpd's
/// connection, whose daemon's listening socket names the server here. A reload swaps
/// the entry: handshakes from then on get the new certificate, connections already open
/// keep theirs.
enum TLSCredentialRegistry {
    private static let entries = Mutex<[Int32: TLSCredentials]>([:])
    /// Replaced credentials, kept alive for the sessions that may still use them.
    private static let retired = Mutex<[TLSCredentials]>([])

    static func set(_ credentials: TLSCredentials, listeningOn socket: Int32) {
        let previous = entries.withLock { entries in
            defer { entries[socket] = credentials }
            return entries[socket]
        }
        if let previous { retired.withLock { $0.append(previous) } }
    }

    static func remove(listeningOn socket: Int32) {
        let previous = entries.withLock { $0.removeValue(forKey: socket) }
        if let previous { retired.withLock { $0.append(previous) } }
    }

    static func credentials(listeningOn socket: Int32) -> TLSCredentials? {
        entries.withLock { $0[socket] }
    }

    /// `MHD_OPTION_HTTPS_CERT_CALLBACK`: GnuTLS asks for the certificate to present.
    static let retrieve:
        @convention(c) (
            gnutls_session_t?, UnsafePointer<gnutls_datum_t>?, Int32,
            UnsafePointer<gnutls_pk_algorithm_t>?, Int32,
            UnsafeMutablePointer<UnsafeMutablePointer<gnutls_pcert_st>?>?,
            UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<gnutls_privkey_t?>?
        ) -> Int32 = { session, _, _, _, _, certificates, count, key in
            guard let session, let certificates, let count, let key,
                let connection = gnutls_session_get_ptr(session)
            else { return -1 }
            let socket = cmicrohttpd_connection_listen_socket(OpaquePointer(connection))
            guard let credentials = TLSCredentialRegistry.credentials(listeningOn: socket) else {
                return -1
            }
            certificates.pointee = credentials.certificates
            count.pointee = credentials.count
            key.pointee = credentials.key
            return 0
        }
}
