import Foundation
import HTTPCore
import MyNotesTesting
import Testing

/// A body over the limit is answered 413 in a way the client can read: the server answers,
/// shuts its side, and reads and throws away what the client still sends before it closes.
@Suite struct RefusedBodyTests {
    static func startServer() throws -> HTTPServer {
        var router = Router()
        for path in ["/mynotes/webservice.php", "/api/v1/notes"] {
            router.on(path, methods: [.get, .post]) { request, _ in
                HTTPResponse(
                    status: .ok, contentType: "text/plain",
                    body: Array("\(request.body.count)".utf8))
            }
        }
        return try HTTPServer.onLoopback(router)
    }

    /// Python's urllib sends the whole body before it reads: every one of its POSTs of
    /// 2 MB must see the 413, none a reset or a broken pipe.
    @Test(arguments: ["/mynotes/webservice.php", "/api/v1/notes"])
    func everyUrllibPostOf2MBGetsThe413(path: String) throws {
        let server = try Self.startServer()
        let script = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "../../scripts/post-oversized-bodies.py").standardized
        // ChildProcess, not Foundation's Process: its spawn reads past a buffer (ASan).
        let result = try CommandRunner.run(
            executable: URL(filePath: "/usr/bin/env"),
            ["python3", script.path, "http://127.0.0.1:\(server.port)\(path)", "20", "2000000"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "413 20\n")
    }

    @Test func aClientThatSendsItsWholeBodyFirstReadsThe413() throws {
        let server = try Self.startServer()
        let client = try RawHTTPClient(port: server.port)
        let size = 2_000_000
        #expect(
            client.write(
                "POST /api/v1/notes HTTP/1.1\r\nHost: t\r\nContent-Length: \(size)\r\n\r\n"))
        let sent = client.write([UInt8](repeating: UInt8(ascii: "a"), count: size))
        #expect(sent, "the server reset the connection while the body was sent")
        #expect(try client.readResponse().status == 413)
        #expect(client.isClosedByServer())
    }

    @Test func refusesAnOversizedBodyBeforeItIsSentWhenAskedToContinue() throws {
        let server = try Self.startServer()
        let client = try RawHTTPClient(port: server.port)
        let response = try client.send(
            "POST /api/v1/notes HTTP/1.1\r\nHost: t\r\nContent-Length: 2000000\r\n"
                + "Expect: 100-continue\r\n\r\n")
        #expect(response.status == 413)
        #expect(client.isClosedByServer())
    }

    @Test func invitesABodyWithinTheLimitWhenAskedToContinue() throws {
        let server = try Self.startServer()
        let client = try RawHTTPClient(port: server.port)
        #expect(
            client.write(
                "POST /api/v1/notes HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n"
                    + "Expect: 100-continue\r\n\r\n"))
        #expect(try client.readResponse(expectBody: false).status == 100)
        let response = try client.send("hello")
        #expect(response.status == 200)
        #expect(response.text == "5")
    }
}
