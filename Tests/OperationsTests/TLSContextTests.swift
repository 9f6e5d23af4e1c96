import Foundation
import MyNotesTesting
import Testing

@testable import HTTPCore

/// The OpenSSL context HTTPS connections are accepted with: built from PEM files that are
/// checked first, each refusal naming the file and the fault, and rebuilt on reload.
@Suite(.enabled(if: Tools.find("openssl") != nil, "openssl: scripts/operations-tools.sh"))
struct TLSContextTests {
    /// What can be wrong with the files, and what the refusal must say.
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        case missingCertificate, missingKey, directoryAsKey, keyAsCertificate, certificateAsKey,
            otherKey, encryptedKey, expiredCertificate, futureCertificate

        var testDescription: String { rawValue }
    }

    /// The configuration with `fault`, and the words its error must contain.
    func configuration(
        with fault: Fault, in fixture: OperationsFixture
    ) throws -> (TLSConfiguration, [String]) {
        let (certificate, key) = try fixture.makeCertificate(named: "good", commonName: "good")
        switch fault {
        case .missingCertificate:
            let missing = fixture.path("nowhere.pem")
            return (
                TLSConfiguration(certificateFile: missing, keyFile: key),
                ["cannot read certificate \(missing): No such file or directory"]
            )
        case .missingKey:
            let missing = fixture.path("nowhere-key.pem")
            return (
                TLSConfiguration(certificateFile: certificate, keyFile: missing),
                ["cannot read key \(missing): No such file or directory"]
            )
        case .directoryAsKey:
            return (
                TLSConfiguration(certificateFile: certificate, keyFile: fixture.directory.path),
                ["cannot read key \(fixture.directory.path): a directory, not a file"]
            )
        case .keyAsCertificate:
            return (
                TLSConfiguration(certificateFile: key, keyFile: key),
                ["certificate \(key): no PEM certificate in it"]
            )
        case .certificateAsKey:
            return (
                TLSConfiguration(certificateFile: certificate, keyFile: certificate),
                ["key \(certificate): no PEM private key in it"]
            )
        case .otherKey:
            let (_, other) = try fixture.makeCertificate(named: "other", commonName: "other")
            return (
                TLSConfiguration(certificateFile: certificate, keyFile: other),
                ["certificate and key do not match", other, certificate]
            )
        case .encryptedKey:
            let encrypted = fixture.path("encrypted-key.pem")
            let made = try Tools.run(
                "openssl",
                ["pkey", "-in", key, "-aes256", "-passout", "pass:secret", "-out", encrypted])
            try #require(made.status == 0, "openssl pkey: \(made.standardError)")
            return (
                TLSConfiguration(certificateFile: certificate, keyFile: encrypted),
                ["key \(encrypted) is encrypted"]
            )
        case .expiredCertificate:
            let (old, oldKey) = try fixture.makeCertificate(
                named: "expired", from: "20200101000000Z", to: "20200102000000Z")
            return (
                TLSConfiguration(certificateFile: old, keyFile: oldKey),
                ["certificate \(old) expired on 2020-01-02T00:00:00Z"]
            )
        case .futureCertificate:
            let (future, futureKey) = try fixture.makeCertificate(
                named: "future", from: "20990101000000Z", to: "20990102000000Z")
            return (
                TLSConfiguration(certificateFile: future, keyFile: futureKey),
                ["certificate \(future) is not valid before 2099-01-01T00:00:00Z"]
            )
        }
    }

    @Test(arguments: Fault.allCases)
    func aFaultyFileIsRefusedSayingWhichAndWhy(fault: Fault) throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let (configuration, words) = try configuration(with: fault, in: fixture)
        do {
            _ = try TLSContext(configuration)
            Issue.record("\(fault) was accepted")
        } catch {
            for word in words {
                #expect(error.description.contains(word), "\(error.description)")
            }
        }
    }

    @Test func theCertificateFileMayCarryIntermediates() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let chain = try fixture.makeCertificateChain()
        let configuration = TLSConfiguration(certificateFile: chain.fullChain, keyFile: chain.key)
        #expect(try TLSIdentity(configuration).intermediates.count == 1)
        _ = try TLSContext(configuration)
    }

    /// A good reload swaps the context; a bad one throws and leaves the current one in use.
    @Test func reloadSwapsOnlyForGoodFiles() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let (certificate, key) = try fixture.makeCertificate(named: "cert", commonName: "first")
        let context = try TLSContext(TLSConfiguration(certificateFile: certificate, keyFile: key))
        let first = context.currentHandle

        let (_, otherKey) = try fixture.makeCertificate(named: "other", commonName: "other")
        try FileManager.default.removeItem(atPath: key)
        try FileManager.default.copyItem(atPath: otherKey, toPath: key)
        #expect(throws: HTTPServerError.self) { try context.reload() }
        #expect(context.currentHandle == first)

        let (renewed, renewedKey) = try fixture.makeCertificate(
            named: "renewed", commonName: "renewed")
        for (source, target) in [(renewed, certificate), (renewedKey, key)] {
            try FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: source, toPath: target)
        }
        try context.reload()
        #expect(context.currentHandle != first)
    }
}

extension OperationsFixture {
    /// A self-signed certificate valid only between two dates (`YYYYMMDDHHMMSSZ`), made
    /// with `openssl ca`, the one openssl command that takes arbitrary dates.
    func makeCertificate(
        named name: String, from start: String, to end: String
    ) throws -> (certificate: String, key: String) {
        let certificate = path(name + ".pem")
        let key = path(name + "-key.pem")
        let request = path(name + ".csr")
        let database = path(name + "-index.txt")
        let serial = path(name + "-serial")
        let configuration = path(name + "-ca.cnf")
        try Data().write(to: URL(fileURLWithPath: database))
        try Data("01\n".utf8).write(to: URL(fileURLWithPath: serial))
        try Data(
            """
            [ca]
            default_ca = dated
            [dated]
            database = \(database)
            new_certs_dir = \(directory.path)
            serial = \(serial)
            default_md = sha256
            policy = any
            [any]
            commonName = supplied
            """.utf8
        ).write(to: URL(fileURLWithPath: configuration))
        try runOpenSSL([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", request, "-subj", "/CN=\(name)",
        ])
        try runOpenSSL([
            "ca", "-batch", "-config", configuration, "-selfsign", "-keyfile", key, "-in",
            request, "-out", certificate, "-startdate", start, "-enddate", end,
        ])
        return (certificate, key)
    }

    /// A root, an intermediate it signed, and a server certificate for localhost signed by
    /// the intermediate: `fullChain` holds the server's and the intermediate's, as a
    /// certificate authority hands them out; clients are to trust `root` alone.
    func makeCertificateChain() throws -> (root: String, fullChain: String, key: String) {
        let root = path("root.pem")
        let rootKey = path("root-key.pem")
        try runOpenSSL([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", rootKey, "-out", root, "-days", "2", "-subj", "/CN=Test Root",
        ])
        var issuer = (certificate: root, key: rootKey)
        var pieces: [String] = []
        for (name, extensions) in [
            ("intermediate", "basicConstraints=critical,CA:TRUE\nkeyUsage=keyCertSign"),
            ("server", "subjectAltName=DNS:localhost,IP:127.0.0.1"),
        ] {
            let (certificate, key) = (path(name + ".pem"), path(name + "-key.pem"))
            let request = path(name + ".csr")
            let extensionFile = path(name + ".ext")
            try Data(extensions.utf8).write(to: URL(fileURLWithPath: extensionFile))
            try runOpenSSL([
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=\(name)",
            ])
            try runOpenSSL([
                "x509", "-req", "-in", request, "-CA", issuer.certificate, "-CAkey", issuer.key,
                "-CAcreateserial", "-days", "2", "-extfile", extensionFile, "-out", certificate,
            ])
            pieces.insert(try String(contentsOfFile: certificate, encoding: .utf8), at: 0)
            issuer = (certificate, key)
        }
        let fullChain = path("fullchain.pem")
        try Data(pieces.joined().utf8).write(to: URL(fileURLWithPath: fullChain))
        return (root, fullChain, issuer.key)
    }

    private func runOpenSSL(_ arguments: [String]) throws {
        let result = try Tools.run("openssl", arguments)
        try #require(result.status == 0, "openssl \(arguments[0]): \(result.standardError)")
    }
}

extension TLSContext {
    /// The `SSL_CTX*` handshakes get now, to tell whether a reload swapped it.
    var currentHandle: OpaquePointer? {
        var handle: OpaquePointer?
        withSSLContext { handle = $0 }
        return handle
    }
}
