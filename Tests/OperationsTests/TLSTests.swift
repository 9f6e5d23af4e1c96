import Foundation
import MyNotesTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Built-in HTTPS, checked with curl, Python's ssl and openssl s_client against a
/// certificate made here.
@Suite(.enabled(if: Tools.find("openssl") != nil, "openssl: scripts/operations-tools.sh"))
struct TLSTests {
    struct Running {
        let fixture: OperationsFixture
        let server: ServerProcess
        let certificate: String
        let key: String

        func stop() {
            server.stop(signal: SIGTERM)
            fixture.remove()
        }
    }

    func start(_ extra: [String] = []) throws -> Running {
        let fixture = try OperationsFixture()
        let (certificate, key) = try fixture.makeCertificate(named: "cert", commonName: "first")
        return try start(in: fixture, certificate: certificate, key: key, extra)
    }

    func start(
        in fixture: OperationsFixture, certificate: String, key: String, _ extra: [String] = []
    ) throws -> Running {
        let server = try ServerProcess(
            database: fixture.location,
            arguments: ["--tls-cert", certificate, "--tls-key", key] + extra)
        #expect(server.readyLine == "MyNotes server listening on https://127.0.0.1:\(server.port)")
        return Running(fixture: fixture, server: server, certificate: certificate, key: key)
    }

    @Test(.enabled(if: Tools.find("curl") != nil, "curl"))
    func curlGetsAnswersAndTheBrowserAppGetsHSTS() throws {
        let running = try start()
        defer { running.stop() }
        let base = "https://localhost:\(running.server.port)"
        let health = try Tools.run(
            "curl", ["-sS", "--cacert", running.certificate, base + "/healthz"])
        #expect(health.status == 0, "\(health.standardError)")
        #expect(health.standardOutput == #"{"status":"alive"}"#)
        let page = try Tools.run(
            "curl",
            ["-sS", "-o", "/dev/null", "-D", "-", "--cacert", running.certificate, base + "/"])
        #expect(
            page.standardOutput.lowercased().contains("strict-transport-security: max-age=31536000")
        )
        let api = try Tools.run(
            "curl",
            [
                "-sS", "-o", "/dev/null", "-D", "-", "--cacert", running.certificate,
                base + "/api/v1/openapi.json",
            ])
        #expect(api.standardOutput.hasPrefix("HTTP/1.1 200"))
        // Plain HTTP to the TLS port is no request at all.
        let plain = try Tools.run(
            "curl", ["-sS", "--max-time", "5", "http://127.0.0.1:\(running.server.port)/healthz"])
        #expect(plain.standardOutput != #"{"status":"alive"}"#)
    }

    @Test(arguments: ["-tls1", "-tls1_1"])
    func oldProtocolsAreRefused(version: String) throws {
        let running = try start()
        defer { running.stop() }
        // SECLEVEL=0 lets this client offer TLS 1.0 and 1.1: the refusal is the server's.
        let old = try Tools.run(
            "openssl",
            [
                "s_client", "-connect", "127.0.0.1:\(running.server.port)", version,
                "-cipher", "DEFAULT@SECLEVEL=0",
            ],
            input: "")
        // The client sent its hello; the server sent nothing back, no certificate, no cipher.
        #expect(old.status != 0)
        #expect(old.standardOutput.contains("no peer certificate available"))
        #expect(old.standardOutput.contains("Cipher is (NONE)"))
        for modern in ["-tls1_2", "-tls1_3"] {
            let result = try Tools.run(
                "openssl",
                [
                    "s_client", "-connect", "127.0.0.1:\(running.server.port)", modern,
                    "-CAfile", running.certificate, "-verify_return_error",
                ],
                input: "")
            #expect(result.status == 0, "\(modern): \(result.standardError)")
            #expect(result.standardOutput.contains("Verify return code: 0 (ok)"))
        }
    }

    /// Python's ssl: the negotiated version and cipher; then a reload (new certificate,
    /// SIGHUP) while a kept-alive connection stays open and goes on working.
    @Test func pythonSeesModernTLSAndAReloadDropsNoConnection() throws {
        let running = try start()
        defer { running.stop() }
        let (renewed, renewedKey) = try running.fixture.makeCertificate(
            named: "renewed", commonName: "renewed")
        let script = """
            import json, os, shutil, signal, socket, ssl, sys, time
            port, pid, cert, key, new_cert, new_key = sys.argv[1:7]
            ca = open(cert).read() + open(new_cert).read()
            context = ssl.create_default_context(cadata=ca)
            def connect():
                raw = socket.create_connection(("127.0.0.1", int(port)), timeout=10)
                return context.wrap_socket(raw, server_hostname="localhost")
            def get(tls, path):
                tls.sendall(f"GET {path} HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n".encode())
                data = b""
                while b"\\r\\n\\r\\n" not in data:
                    data += tls.recv(4096)
                head, body = data.split(b"\\r\\n\\r\\n", 1)
                length = int([l.split(b":")[1] for l in head.split(b"\\r\\n") if l.lower().startswith(b"content-length")][0])
                while len(body) < length:
                    body += tls.recv(4096)
                return head.split(b" ")[1].decode(), body.decode()
            def subject(tls):
                return dict(x[0] for x in tls.getpeercert()["subject"])["commonName"]
            kept = connect()
            before = get(kept, "/healthz")
            result = {"version": kept.version(), "cipher": kept.cipher()[0], "first": subject(kept), "before": before}
            shutil.copy(new_cert, cert); shutil.copy(new_key, key)
            os.kill(int(pid), signal.SIGHUP)
            deadline = time.monotonic() + 10
            fresh = None
            while time.monotonic() < deadline:
                probe = connect()
                if subject(probe) == "renewed":
                    fresh = probe
                    break
                probe.close()
                time.sleep(0.01)
            result["fresh"] = subject(fresh) if fresh else None
            result["fresh_answer"] = get(fresh, "/healthz") if fresh else None
            result["kept_after"] = get(kept, "/healthz")
            result["kept_subject"] = subject(kept)
            print(json.dumps(result))
            """
        let result = try Tools.run(
            "python3",
            [
                "-c", script, String(running.server.port),
                String(running.server.process.processIdentifier),
                running.certificate, running.key, renewed, renewedKey,
            ])
        try #require(result.status == 0, "python: \(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
                as? [String: Any])
        #expect(["TLSv1.2", "TLSv1.3"].contains(object["version"] as? String ?? ""))
        let cipher = object["cipher"] as? String ?? ""
        #expect(cipher.contains("GCM") || cipher.contains("CHACHA20"), "\(cipher)")
        #expect(object["first"] as? String == "first")
        #expect(object["before"] as? [String] == ["200", #"{"status":"alive"}"#])
        #expect(object["fresh"] as? String == "renewed")
        #expect(object["fresh_answer"] as? [String] == ["200", #"{"status":"alive"}"#])
        // The connection opened before the reload still works, with its old certificate.
        #expect(object["kept_after"] as? [String] == ["200", #"{"status":"alive"}"#])
        #expect(object["kept_subject"] as? String == "first")
    }

    @Test func aMismatchedKeyIsRefusedAtStartAndOnReload() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let (certificate, _) = try fixture.makeCertificate(named: "a", commonName: "a")
        let (_, otherKey) = try fixture.makeCertificate(named: "b", commonName: "b")
        let result = try serveExpectingRefusal(fixture, certificate: certificate, key: otherKey)
        #expect(result.status == 1)
        #expect(
            result.standardError.contains("TLS: certificate and key"), "\(result.standardError)")
    }

    @Test func plainHTTPIsRedirectedWhenAsked() throws {
        let running = try start(["--redirect-http", "0"])
        defer { running.stop() }
        let line = running.server.nextLine()
        let port = try #require(
            line.split(separator: " ").first { Int($0) != nil }.flatMap { Int($0) }, "\(line)")
        let redirect = try RawHTTPClient(port: port).send(
            "POST /api/v1/notes%20x?limit=2 HTTP/1.1\r\nHost: notes.example.org:80\r\nContent-Length: 0\r\n\r\n"
        )
        #expect(redirect.status == 308)
        #expect(
            redirect.header("Location")
                == "https://notes.example.org:\(running.server.port)/api/v1/notes%20x?limit=2")
        let forged = try RawHTTPClient(port: port).send(
            "GET / HTTP/1.1\r\nHost: evil.example/@x\r\n\r\n")
        #expect(forged.status == 400)
    }

    /// `openssl s_client` against the server with `arguments` added, sending nothing.
    func openssl(_ running: Running, _ arguments: [String]) throws -> CommandRunner.Result {
        try Tools.run(
            "openssl",
            [
                "s_client", "-connect", "127.0.0.1:\(running.server.port)", "-CAfile",
                running.certificate,
            ]
                + arguments,
            input: "")
    }

    /// TLS 1.2 ciphers: AEAD only, all with ECDHE. The test certificate is an EC key's, so
    /// the ECDSA names are the ones that could be chosen at all; OpenSSL 3 has no static
    /// (not forward-secret) ECDH left to refuse, and an RSA-key cipher would fail for want
    /// of an RSA certificate whatever the server allowed.
    @Test(arguments: [
        ("ECDHE-ECDSA-AES128-GCM-SHA256", true), ("ECDHE-ECDSA-AES256-GCM-SHA384", true),
        ("ECDHE-ECDSA-CHACHA20-POLY1305", true), ("ECDHE-ECDSA-AES128-SHA256", false),
        ("ECDHE-ECDSA-AES256-SHA", false), ("ECDHE-ECDSA-AES256-SHA384", false),
    ])
    func tls12OffersOnlyForwardSecretAEADCiphers(cipher: String, accepted: Bool) throws {
        let running = try start()
        defer { running.stop() }
        let result = try openssl(running, ["-tls1_2", "-cipher", cipher])
        #expect((result.status == 0) == accepted, "\(result.standardError)")
        #expect(result.standardOutput.contains("Cipher is \(cipher)") == accepted)
        if accepted {
            #expect(result.standardOutput.contains("Compression: NONE"))
        }
    }

    /// ALPN: http/1.1 when offered; a client asking for HTTP/2 alone gets no protocol and
    /// speaks HTTP/1.1, and curl's HTTP/2 attempt ends up on HTTP/1.1.
    @Test func http2IsNeverNegotiated() throws {
        let running = try start()
        defer { running.stop() }
        let both = try openssl(running, ["-alpn", "h2,http/1.1"])
        #expect(both.standardOutput.contains("ALPN protocol: http/1.1"), "\(both.standardOutput)")
        let h2 = try openssl(running, ["-alpn", "h2"])
        #expect(h2.standardOutput.contains("No ALPN negotiated"), "\(h2.standardOutput)")
        guard Tools.find("curl") != nil else { return }
        let curl = try Tools.run(
            "curl",
            [
                "-sS", "--http2", "-o", "/dev/null", "-w", "%{http_version}", "--cacert",
                running.certificate, "https://localhost:\(running.server.port)/healthz",
            ])
        #expect(curl.standardOutput == "1.1", "\(curl.standardError)")
    }

    /// A certificate file with an intermediate after the server's certificate: both are
    /// sent, so a client that trusts only the root verifies the chain.
    @Test(.enabled(if: Tools.find("curl") != nil, "curl"))
    func theIntermediatesAreSent() throws {
        let fixture = try OperationsFixture()
        let chain = try fixture.makeCertificateChain()
        let running = try start(in: fixture, certificate: chain.fullChain, key: chain.key)
        defer { running.stop() }
        let health = try Tools.run(
            "curl",
            [
                "-sS", "--cacert", chain.root,
                "https://localhost:\(running.server.port)/healthz",
            ])
        #expect(health.status == 0, "\(health.standardError)")
        #expect(health.standardOutput == #"{"status":"alive"}"#)
    }

    /// A client that stalls in its handshake (half a ClientHello, then nothing) holds its
    /// connection no longer than the head timeout, as one stalling in its request head does.
    @Test func aStalledHandshakeIsClosedAtTheHeadTimeout() throws {
        let running = try start(["--request-head-timeout", "1"])
        defer { running.stop() }
        let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            started = time.monotonic()
            s.sendall(bytes.fromhex("160301020001000001fc0303"))
            s.settimeout(20)
            try:
                closed = "closed" if s.recv(100) == b"" else "answered"
            except socket.timeout:
                closed = "open"
            except ConnectionResetError:
                closed = "closed"
            print(f"{closed} {time.monotonic() - started:.1f}")
            """
        let result = try Tools.run("python3", ["-c", script, String(running.server.port)])
        let fields = result.standardOutput.split(separator: " ")
        #expect(fields.first == "closed", "\(result.standardOutput) \(result.standardError)")
        let seconds = try #require(
            fields.last.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(seconds >= 0.9 && seconds < 10, "closed after \(seconds) s")
    }

    @Test func anExpiredCertificateIsRefusedAtStart() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let (certificate, key) = try fixture.makeCertificate(
            named: "old", from: "20200101000000Z", to: "20200102000000Z")
        let result = try serveExpectingRefusal(fixture, certificate: certificate, key: key)
        #expect(result.status == 1)
        #expect(
            result.standardError.contains("TLS: certificate \(certificate) expired on 2020-01-02"),
            "\(result.standardError)")
    }

    /// `mynotes-server serve` with these files, expected to refuse them and exit; ended by
    /// `timeout` after 30 s (status 124) if it serves instead.
    func serveExpectingRefusal(
        _ fixture: OperationsFixture, certificate: String, key: String
    ) throws -> CommandRunner.Result {
        try Tools.run(
            "timeout",
            [
                "30", CommandRunner.executable("mynotes-server").path, "serve", "--port", "0",
                "--database", fixture.location, "--tls-cert", certificate, "--tls-key", key,
            ])
    }
}
