import CGnuTLS
import Foundation

/// A certificate chain and key loaded into GnuTLS, handed to each TLS handshake by the
/// certificate callback. Never freed once used: a session may hold on to them after its
/// handshake, and a reload (rare, by hand) costing a few kilobytes is cheaper than
/// tracking every session.
final class TLSCredentials: @unchecked Sendable {
    // Immutable after init; GnuTLS only reads them.
    let certificates: UnsafeMutablePointer<gnutls_pcert_st>
    let count: UInt32
    let key: gnutls_privkey_t

    static let maximumChain: UInt32 = 16

    /// Reads and checks the PEM files: parseable, and the key belongs to the certificate.
    init(_ configuration: TLSConfiguration) throws(HTTPServerError) {
        guard let certificate = FileManager.default.contents(atPath: configuration.certificateFile)
        else { throw .tls(reason: "cannot read certificate \(configuration.certificateFile)") }
        guard let keyPEM = FileManager.default.contents(atPath: configuration.keyFile) else {
            throw .tls(reason: "cannot read key \(configuration.keyFile)")
        }
        try Self.checkPair(certificate: certificate, key: keyPEM)
        let certificates = UnsafeMutablePointer<gnutls_pcert_st>.allocate(
            capacity: Int(Self.maximumChain))
        var count = Self.maximumChain
        let imported = Self.withDatum(certificate) { datum in
            gnutls_pcert_list_import_x509_raw(certificates, &count, &datum, GNUTLS_X509_FMT_PEM, 0)
        }
        guard imported >= 0, count > 0 else {
            certificates.deallocate()
            throw .tls(
                reason: "certificate \(configuration.certificateFile): \(Self.text(imported))")
        }
        var key: gnutls_privkey_t?
        let loaded =
            gnutls_privkey_init(&key) < 0
            ? GNUTLS_E_MEMORY_ERROR
            : Self.withDatum(keyPEM) { datum in
                gnutls_privkey_import_x509_raw(key, &datum, GNUTLS_X509_FMT_PEM, nil, 0)
            }
        guard loaded >= 0, let key else {
            for index in 0..<Int(count) { gnutls_pcert_deinit(certificates + index) }
            certificates.deallocate()
            throw .tls(reason: "key \(configuration.keyFile): \(Self.text(loaded))")
        }
        self.certificates = certificates
        self.count = count
        self.key = key
    }

    /// GnuTLS's own check that the key matches the certificate, through a throwaway
    /// credentials object.
    private static func checkPair(certificate: Data, key: Data) throws(HTTPServerError) {
        var credentials: gnutls_certificate_credentials_t?
        guard gnutls_certificate_allocate_credentials(&credentials) >= 0, let credentials else {
            throw .tls(reason: "GnuTLS cannot allocate credentials")
        }
        defer { gnutls_certificate_free_credentials(credentials) }
        let result = withDatum(certificate) { certificateDatum in
            withDatum(key) { keyDatum in
                gnutls_certificate_set_x509_key_mem(
                    credentials, &certificateDatum, &keyDatum, GNUTLS_X509_FMT_PEM)
            }
        }
        guard result >= 0 else { throw .tls(reason: "certificate and key: \(text(result))") }
    }

    private static func withDatum(_ data: Data, _ body: (inout gnutls_datum_t) -> Int32) -> Int32 {
        var bytes = [UInt8](data)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
            return body(&datum)
        }
    }

    private static func text(_ code: Int32) -> String { String(cString: gnutls_strerror(code)) }
}
