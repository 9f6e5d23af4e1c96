import Foundation
import HTTPCore
import MyNotesTesting
import Testing

/// Responders are async: one that waits suspends its connection, and the thread that
/// serves it goes on serving the others.
@Suite struct AsyncResponderTests {
    /// What `/wait` responders wait for: each arrival is counted, and all go on once the
    /// test opens it. Waiting suspends the responder's task; it holds no thread.
    final class Gate: Sendable {
        let arrivals = EventCounter("a /wait responder arrived")
        private let opened = EventCounter("the gate opened")

        func wait() async {
            arrivals.signal()
            try? await opened.wait(timeout: .seconds(30))
        }

        func open() { opened.signal() }
    }

    /// One worker thread: `/wait` answers when the gate opens, `/echo` at once.
    static func startServer(
        gate: Gate, _ adjust: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> HTTPServer {
        var router = Router()
        router.on("/wait", methods: [.get]) { _, _ in
            await gate.wait()
            return HTTPResponse(status: .ok, contentType: "text/plain", body: Array("opened".utf8))
        }
        router.on("/echo", methods: [.get]) { request, _ in
            HTTPResponse(status: .ok, contentType: "text/plain", body: Array(request.path.utf8))
        }
        return try HTTPServer.onLoopback(router) { configuration in
            configuration.threads = 1
            adjust(&configuration)
        }
    }

    static let waitRequest = "GET /wait HTTP/1.1\r\nHost: t\r\n\r\n"
    static let echoRequest = "GET /echo HTTP/1.1\r\nHost: t\r\n\r\n"

    @Test func aWaitingResponderDoesNotStallOthersOnItsThread() throws {
        let gate = Gate()
        let server = try Self.startServer(gate: gate)
        defer {
            gate.open()
            server.shutdown()
        }
        // Given a request whose responder waits, on the server's only thread
        let waiting = try RawHTTPClient(port: server.port)
        waiting.write(Self.waitRequest)
        try gate.arrivals.waitBlocking()
        // Then other clients are answered meanwhile, on new connections and kept ones
        let other = try RawHTTPClient(port: server.port)
        for _ in 0..<5 {
            #expect(try other.send(Self.echoRequest).text == "/echo")
            #expect(try RawHTTPClient(port: server.port).send(Self.echoRequest).status == 200)
        }
        try Poll.until("only the waiting request in flight") { server.requestsInFlight == 1 }
        // And the waiting one is answered when its event comes, its connection kept alive
        gate.open()
        let answer = try waiting.readResponse()
        #expect(answer.status == 200 && answer.text == "opened")
        #expect(answer.header("Connection")?.lowercased() != "close")
        #expect(try waiting.send(Self.echoRequest).text == "/echo")
    }

    @Test func manyWaitingRespondersAreAnsweredOnOneThread() throws {
        let gate = Gate()
        let server = try Self.startServer(gate: gate)
        defer {
            gate.open()
            server.shutdown()
        }
        let clients = try (0..<50).map { _ in try RawHTTPClient(port: server.port) }
        for client in clients { client.write(Self.waitRequest) }
        try gate.arrivals.waitBlocking(for: clients.count)
        #expect(try RawHTTPClient(port: server.port).send(Self.echoRequest).status == 200)
        gate.open()
        for client in clients { #expect(try client.readResponse().text == "opened") }
    }

    @Test func aClientLeavingWhileItsResponderWaitsLeavesTheServerHealthy() throws {
        let gate = Gate()
        let server = try Self.startServer(gate: gate)
        defer { server.shutdown() }
        do {
            // Given a client that leaves while its responder waits
            let leaving = try RawHTTPClient(port: server.port)
            leaving.write(Self.waitRequest)
            try gate.arrivals.waitBlocking()
        }
        #expect(try RawHTTPClient(port: server.port).send(Self.echoRequest).status == 200)
        // When the responder answers a connection that is gone
        gate.open()
        // Then the request ends, and the server goes on serving
        try Poll.until("no request in flight") { server.requestsInFlight == 0 }
        let client = try RawHTTPClient(port: server.port)
        for _ in 0..<3 { #expect(try client.send(Self.echoRequest).status == 200) }
    }

    @Test func shutdownAnswersRespondersThatOutlastTheGracePeriod() throws {
        let gate = Gate()
        defer { gate.open() }
        let server = try Self.startServer(gate: gate) {
            $0.shutdownGracePeriod = .milliseconds(200)
        }
        let waiting = try RawHTTPClient(port: server.port)
        waiting.write(Self.waitRequest)
        try gate.arrivals.waitBlocking()
        // When the server stops while the responder still waits
        let started = ContinuousClock.now
        server.shutdown()
        // Then it stopped after the grace period, answering 503 rather than hanging
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(try waiting.readResponse().status == 503)
    }
}
