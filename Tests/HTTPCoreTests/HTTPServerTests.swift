import Foundation
import HTTPCore
import MyNotesTesting
import Testing

/// The HTTP layer driven over real TCP: keep-alive, limits, slow and hostile clients.
@Suite struct HTTPServerTests {
    /// A router with an echo route and a slow route, on a free port.
    static func startServer(
        _ adjust: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> HTTPServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        adjust(&configuration)
        var router = Router()
        router.on("/echo", methods: [.get, .post]) { request, _ in
            let query = request.rawQuery.map { String(decoding: $0, as: UTF8.self) } ?? "-"
            let text = "\(request.method) \(request.path) \(query) \(request.body.count)"
            return HTTPResponse(status: .ok, contentType: "text/plain", body: Array(text.utf8))
        }
        router.on("/slow", methods: [.get]) { _, _ in
            Thread.sleep(forTimeInterval: 0.5)
            return HTTPResponse(status: .ok, contentType: "text/plain", body: Array("done".utf8))
        }
        router.on(
            PathPattern("/items/{id}"), methods: [.get, .delete],
            responder: ClosureResponder {
                _, context in
                HTTPResponse(
                    status: .ok, contentType: "text/plain",
                    body: Array((context.parameters["id"] ?? "").utf8))
            })
        return try HTTPServer(configuration: configuration, responder: router)
    }

    @Test func keepsTheConnectionAliveAcrossRequests() throws {
        let server = try Self.startServer()
        let client = try RawHTTPClient(port: server.port)
        for index in 0..<3 {
            let response = try client.send("GET /echo?n=\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(response.status == 200)
            #expect(response.text == "GET /echo n=\(index) 0")
            #expect(response.header("Connection")?.lowercased() != "close")
        }
    }

    @Test func decodesThePathAndKeepsTheQueryRaw() throws {
        let server = try Self.startServer()
        let response = try RawHTTPClient(port: server.port)
            .send("GET /ech%6F?a=%zz+b HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(response.text == "GET /echo a=%zz+b 0")
    }

    @Test func answersUnknownPaths404AndOtherMethods405WithAllow() throws {
        let server = try Self.startServer()
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.send("GET /nowhere HTTP/1.1\r\nHost: t\r\n\r\n").status == 404)
        let response = try client.send("PUT /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, POST")
    }

    @Test func matchesPathParameters() throws {
        let server = try Self.startServer()
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.send("GET /items/42 HTTP/1.1\r\nHost: t\r\n\r\n").text == "42")
        #expect(try client.send("GET /items/ HTTP/1.1\r\nHost: t\r\n\r\n").status == 404)
    }

    @Test(arguments: [1_000, 1 << 20])
    func acceptsBodiesUpToTheLimit(size: Int) throws {
        let server = try Self.startServer()
        let body = String(repeating: "a", count: size)
        let response = try RawHTTPClient(port: server.port).send(
            "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: \(size)\r\n\r\n\(body)")
        #expect(response.status == 200)
        #expect(response.text == "POST /echo - \(size)")
    }

    @Test func refusesADeclaredBodyOverTheLimitWith413AndKeepsServing() throws {
        let server = try Self.startServer()
        // Given a client that announces 10 MB and starts sending it
        let client = try RawHTTPClient(port: server.port)
        client.write("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 10000000\r\n\r\n")
        client.write([UInt8](repeating: UInt8(ascii: "a"), count: 100_000))
        // Then it is refused at once, and the server goes on serving others
        #expect(try client.readResponse().status == 413)
        let other = try RawHTTPClient(port: server.port)
        #expect(try other.send("GET /echo HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
    }

    @Test func refusesAChunkedBodyThatGrowsOverTheLimit() throws {
        let server = try Self.startServer { $0.maxBodyBytes = 10_000 }
        let chunk = String(repeating: "b", count: 0x1000)
        var request = "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
        for _ in 0..<4 { request += "1000\r\n\(chunk)\r\n" }
        request += "0\r\n\r\n"
        #expect(try RawHTTPClient(port: server.port).send(request).status == 413)
    }

    @Test func refusesARequestTargetOver64KiBWith414() throws {
        let server = try Self.startServer()
        let client = try RawHTTPClient(port: server.port)
        let prefix = "/echo?p="
        let fits = prefix + String(repeating: "x", count: (64 << 10) - prefix.count)
        #expect(try client.send("GET \(fits) HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        let tooLong = fits + "x"
        #expect(
            try RawHTTPClient(port: server.port).send("GET \(tooLong) HTTP/1.1\r\nHost: t\r\n\r\n")
                .status == 414)
        let wayTooLong = fits + String(repeating: "x", count: 200_000)
        #expect(
            try RawHTTPClient(port: server.port).send(
                "GET \(wayTooLong) HTTP/1.1\r\nHost: t\r\n\r\n"
            )
            .status == 414)
    }

    @Test(arguments: [(15_000, 200), (17_000, 431), (100_000, 431)])
    func refusesHeadersOver16KiBWith431(size: Int, status: Int) throws {
        let server = try Self.startServer()
        let header = String(repeating: "h", count: size)
        let response = try RawHTTPClient(port: server.port)
            .send("GET /echo HTTP/1.1\r\nHost: t\r\nX-Big: \(header)\r\n\r\n")
        #expect(response.status == status)
    }

    @Test func answersMalformedRequests400() throws {
        let server = try Self.startServer()
        for request in [
            "GET /echo HTTP/1.1\r\nBroken header line\r\n\r\n",
            "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n",
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n",
        ] {
            #expect(try RawHTTPClient(port: server.port).send(request).status == 400)
        }
    }

    /// libmicrohttpd's epoll loop stalled for seconds once 128 connections were ready
    /// together; this is the guard that the loop in use does not.
    @Test(arguments: [127, 128, 300])
    func answersManyConnectionsReadyAtOnce(count: Int) throws {
        let server = try Self.startServer {
            $0.threads = 1
            $0.maxConnectionsPerAddress = count
        }
        let clients = try (0..<count).map { _ in try RawHTTPClient(port: server.port) }
        let started = ContinuousClock.now
        for round in 0..<3 {
            for client in clients {
                client.write("GET /echo?r=\(round) HTTP/1.1\r\nHost: t\r\n\r\n")
            }
            for client in clients { #expect(try client.readResponse().status == 200) }
        }
        #expect(ContinuousClock.now - started < .seconds(3))
    }

    @Test func servesOthersWhileAClientSendsOneBytePerSecond() throws {
        let server = try Self.startServer()
        // Given a client dribbling its request line, a byte at a time
        let port = server.port
        let dribble = Thread {
            guard let slow = try? RawHTTPClient(port: port) else { return }
            for byte in "GET /echo?slow HTTP/1.1\r\n".utf8 {
                slow.write([byte])
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        dribble.start()
        // Then other clients are served without waiting for it
        let started = ContinuousClock.now
        for _ in 0..<20 {
            #expect(
                try RawHTTPClient(port: server.port).send("GET /echo HTTP/1.1\r\nHost: t\r\n\r\n")
                    .status == 200)
        }
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func closesIdleConnectionsAfterTheTimeout() throws {
        let server = try Self.startServer { $0.idleTimeoutSeconds = 1 }
        let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        client.write("GET /echo HTTP/1.1\r\n")
        let started = ContinuousClock.now
        #expect(client.isClosedByServer())
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    @Test func shutdownFinishesRequestsInFlight() throws {
        let server = try Self.startServer()
        let client = try RawHTTPClient(port: server.port)
        // Given a request the server is still working on
        client.write("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        while server.requestsInFlight == 0 { Thread.sleep(forTimeInterval: 0.01) }
        // When the server shuts down
        let stopper = Thread { server.shutdown() }
        stopper.start()
        // Then the request is still answered
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "done")
        while server.requestsInFlight > 0 { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(throws: (any Error).self) { _ = try RawHTTPClient(port: server.port) }
    }

    @Test func reportsAPortInUse() throws {
        let server = try Self.startServer()
        #expect(throws: HTTPServerError.self) {
            _ = try Self.startServer { $0.port = server.port }
        }
    }
}
