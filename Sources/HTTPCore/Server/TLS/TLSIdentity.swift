import CH2O
import Foundation

/// A server's certificate, the intermediates sent after it, and its private key, read from
/// ``TLSConfiguration``'s PEM files and checked before a ``TLSContext`` uses them: each
/// file readable and holding what it should, the key unencrypted and the certificate's
/// own, the certificate valid now. Each refusal says which file and what is wrong with it.
final class TLSIdentity {
    /// `X509*`: the server's own certificate, the first in its file.
    let certificate: OpaquePointer
    /// `X509*`s: the rest of the certificate file, in order.
    let intermediates: [OpaquePointer]
    /// `EVP_PKEY*`.
    let key: OpaquePointer

    init(_ configuration: TLSConfiguration, now: Date = Date()) throws(HTTPServerError) {
        let certificateFile = configuration.certificateFile
        let keyFile = configuration.keyFile
        // Both files read before anything is parsed: a refusal after parsing must free what
        // was parsed, and there is then one such place.
        let certificatePEM = try Self.contents(of: certificateFile, "certificate")
        let keyPEM = try Self.contents(of: keyFile, "key")
        let certificates = try Self.certificates(in: certificatePEM, file: certificateFile)
        guard let key = Self.withMemoryBIO(keyPEM, ch2o_tls_read_private_key) else {
            let reason = TLSContext.errorReason(or: "unreadable")
            let encrypted = String(decoding: keyPEM, as: UTF8.self).contains("ENCRYPTED")
            certificates.forEach { X509_free($0) }
            throw .tls(
                reason: encrypted
                    ? "key \(keyFile) is encrypted; give the key without a passphrase"
                    : "key \(keyFile): no PEM private key in it (\(reason))")
        }
        self.certificate = certificates[0]
        self.intermediates = Array(certificates.dropFirst())
        self.key = key
        // From here on deinit frees what a refusal leaves behind.
        guard X509_check_private_key(certificate, key) == 1 else {
            ERR_clear_error()
            throw .tls(
                reason: "certificate and key do not match: the key in \(keyFile) is not the key"
                    + " of the certificate in \(certificateFile)")
        }
        try checkValidity(at: now, file: certificateFile)
    }

    deinit {
        X509_free(certificate)
        intermediates.forEach { X509_free($0) }
        EVP_PKEY_free(key)
    }

    /// Refuses a certificate that has expired or is not valid yet: every client would
    /// refuse it too, and a renewal that left the old file in place is a mistake to show
    /// at once, not at the first complaint.
    private func checkValidity(at now: Date, file: String) throws(HTTPServerError) {
        var notBefore: Int64 = 0
        var notAfter: Int64 = 0
        guard ch2o_tls_time_to_epoch(X509_get0_notBefore(certificate), &notBefore) == 1,
            ch2o_tls_time_to_epoch(X509_get0_notAfter(certificate), &notAfter) == 1
        else { throw .tls(reason: "certificate \(file): its validity dates cannot be read") }
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        if seconds > notAfter {
            throw .tls(reason: "certificate \(file) expired on \(Self.formatted(notAfter))")
        }
        if seconds < notBefore {
            throw .tls(
                reason: "certificate \(file) is not valid before \(Self.formatted(notBefore))")
        }
    }

    /// The certificates in a PEM file, in order; at least one.
    private static func certificates(in pem: Data, file: String) throws(HTTPServerError)
        -> [OpaquePointer]
    {
        let certificates = withMemoryBIO(pem) { bio in
            var certificates: [OpaquePointer] = []
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                certificates.append(certificate)
            }
            return certificates
        }
        // Reading stops at the end of the file with an error ("no start line"), expected
        // once there was a certificate, the reason when there was none.
        let reason = TLSContext.errorReason(or: "empty")
        guard !certificates.isEmpty else {
            throw .tls(reason: "certificate \(file): no PEM certificate in it (\(reason))")
        }
        return certificates
    }

    private static func contents(of file: String, _ role: String) throws(HTTPServerError) -> Data {
        if let data = FileManager.default.contents(atPath: file) { return data }
        var isDirectory: ObjCBool = false
        let reason: String
        if access(file, R_OK) != 0 {
            reason = String(cString: strerror(errno))
        } else if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            reason = "a directory, not a file"
        } else {
            reason = "not a readable file"
        }
        throw .tls(reason: "cannot read \(role) \(file): \(reason)")
    }

    /// `body` with a read-only OpenSSL memory BIO over `data`.
    private static func withMemoryBIO<Result>(
        _ data: Data, _ body: (OpaquePointer?) -> Result
    ) -> Result {
        data.withUnsafeBytes { bytes in
            let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count))
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// `2020-01-02T00:00:00Z`.
    private static func formatted(_ seconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
