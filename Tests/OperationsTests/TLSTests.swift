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
    }

    func start(_ extra: [String] = []) throws -> Running {
        let fixture = try OperationsFixture()
        let (certificate, key) = try fixture.makeCertificate(named: "cert", commonName: "first")
        let server = try ServerProcess(
            database: fixture.location,
            arguments: ["--tls-cert", certificate, "--tls-key", key] + extra)
        #expect(server.readyLine == "MyNotes server listening on https://127.0.0.1:\(server.port)")
        return Running(fixture: fixture, server: server, certificate: certificate, key: key)
    }

    @Test(.enabled(if: Tools.find("curl") != nil, "curl"))
    func curlGetsAnswersAndTheBrowserAppGetsHSTS() throws {
        let running = try start()
        defer {
            running.server.stop(signal: SIGTERM)
            running.fixture.remove()
        }
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
        defer {
            running.server.stop(signal: SIGTERM)
            running.fixture.remove()
        }
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
        defer {
            running.server.stop(signal: SIGTERM)
            running.fixture.remove()
        }
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
        let result = try CommandRunner.run(
            "mynotes-server",
            [
                "serve", "--port", "0", "--database", fixture.location, "--tls-cert", certificate,
                "--tls-key", otherKey,
            ])
        #expect(result.status == 1)
        #expect(
            result.standardError.contains("TLS: certificate and key"), "\(result.standardError)")
    }

    @Test func plainHTTPIsRedirectedWhenAsked() throws {
        let running = try start(["--redirect-http", "0"])
        defer {
            running.server.stop(signal: SIGTERM)
            running.fixture.remove()
        }
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
}
