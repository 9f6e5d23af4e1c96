import Foundation
import HTTPCore
import MyNotesTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Connection limits and request deadlines against a slowloris attacker on 127.0.0.2,
/// while a well-behaved client on 127.0.0.1 is served.
@Suite(.serialized) struct ConnectionLimitTests {
    static let partialRequestLine = Array("GET /echo?slow".utf8)

    static func startServer(
        _ adjust: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> HTTPServer {
        var router = Router()
        router.on("/echo", methods: [.get, .post]) { request, _ in
            HTTPResponse(
                status: .ok, contentType: "text/plain", body: Array("\(request.body.count)".utf8))
        }
        return try HTTPServer.onLoopback(router, adjust)
    }

    /// The 2,000 sockets and the server's side of them fit twice in the default limit of
    /// 1,024 descriptors only when it is raised, as the server does.
    static func raiseFileLimit() {
        ServerConfiguration.raiseOpenFileLimit()
    }

    /// Latencies of `count` requests, every tenth on a new connection.
    static func victimLatencies(port: Int, count: Int) throws -> [Duration] {
        var client = try RawHTTPClient(port: port)
        var latencies: [Duration] = []
        for index in 0..<count {
            if index % 10 == 0 { client = try RawHTTPClient(port: port) }
            let started = ContinuousClock.now
            let response = try client.send("GET /echo HTTP/1.1\r\nHost: t\r\n\r\n")
            latencies.append(ContinuousClock.now - started)
            #expect(response.status == 200)
        }
        return latencies.sorted()
    }

    @Test(arguments: [256, 4_096])
    func twoThousandTricklingSocketsLeaveOthersServed(perAddress: Int) throws {
        Self.raiseFileLimit()
        let server = try Self.startServer { $0.maxConnectionsPerAddress = perAddress }
        // Given 2,000 sockets from one address, each with half a request line
        let attack = try SocketSwarm(count: 2_000, from: "127.0.0.2", port: server.port)
        let held = min(perAddress, 2_000)
        attack.send(Self.partialRequestLine)
        // Then those over the per-address limit are closed as they arrive
        try Poll.until("the connections over the per-address limit closed") {
            attack.closedCount() >= 2_000 - held
        }
        try Poll.until("the server holding the connections within the limit") {
            server.openConnections == held
        }
        // And while the rest trickle a byte every 20 ms, another client is served quickly
        let trickler = PeriodicThread(every: .milliseconds(20)) { attack.send(Array("x".utf8)) }
        defer { trickler.stop() }
        let latencies = try Self.victimLatencies(port: server.port, count: 300)
        let p99 = latencies[latencies.count * 99 / 100]
        #expect(p99 < .milliseconds(50), "p99 \(p99), max \(latencies.last!)")
        #expect(attack.closedCount() == 2_000 - held)
    }

    @Test func refusesConnectionsOverTheGlobalLimitAndRecovers() throws {
        let server = try Self.startServer { $0.maxConnections = 40 }
        // Given 60 connections when 40 are allowed
        let attack = try SocketSwarm(count: 60, from: "127.0.0.2", port: server.port)
        attack.send(Self.partialRequestLine)
        // Then 20 are closed at once, and the 40 others are held
        try Poll.until("20 connections over the global limit closed") { attack.closedCount() == 20 }
        try Poll.until("40 connections open") { server.openConnections == 40 }
        // When the attacker lets go, others get in again
        attack.hangUp(60)
        try Poll.until("no connection open") { server.openConnections == 0 }
        let response = try RawHTTPClient(port: server.port).send(
            "GET /echo HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(response.status == 200)
    }

    @Test func closesRequestsWhoseHeadOrBodyIsLate() throws {
        let clock = ManualClock()
        let server = try Self.startServer {
            $0.clock = clock
            $0.requestHeadTimeout = .seconds(10)
            $0.requestBodyTimeout = .seconds(60)
            $0.idleTimeoutSeconds = 30
        }
        // Given one connection kept alive after an answer (the answer is complete once
        // no request is in flight: its next head is due 30 + 10 s from then)
        let keptAlive = try RawHTTPClient(port: server.port)
        #expect(try keptAlive.send("GET /echo HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        try Poll.until("no request in flight") { server.requestsInFlight == 0 }
        // and one that sent its head and half its body (the 100 Continue tells that the
        // head was read, which starts its 60 s)
        let uploading = try RawHTTPClient(port: server.port)
        #expect(
            uploading.write(
                "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n"
                    + "Expect: 100-continue\r\n\r\n"))
        #expect(try uploading.readResponse(expectBody: false).status == 100)
        #expect(uploading.write("12345"))
        // and 20 connections trickling their request line
        let trickling = try SocketSwarm(count: 20, from: "127.0.0.2", port: server.port)
        trickling.send(Self.partialRequestLine)
        try Poll.until("22 connections open") { server.openConnections == 22 }

        func advance(_ seconds: Int) throws {
            try Poll.until("the watchdog asleep on the clock") { clock.pendingWaits.count == 1 }
            clock.advance(by: .seconds(seconds))
            // The watchdog sleeps again once it has swept.
            try Poll.until("the watchdog asleep on the clock") { clock.pendingWaits.count == 1 }
        }
        // When 9 s pass with a byte now and then, nothing is closed
        try advance(5)
        trickling.send(Array("x".utf8))
        try advance(4)
        #expect(trickling.closedCount() == 0)
        #expect(server.openConnections == 22)
        // When the head timeout passes, the trickling connections are closed, however
        // recently they sent a byte, and only they
        trickling.send(Array("x".utf8))
        try advance(2)
        try Poll.until("the 20 trickling connections closed") { trickling.closedCount() == 20 }
        try Poll.until("2 connections open") { server.openConnections == 2 }
        // When the kept-alive connection has been idle for 30 s plus the head timeout,
        // it is closed; the upload still has until 60 s after its head
        try advance(30)
        try Poll.until("1 connection open") { server.openConnections == 1 }
        #expect(keptAlive.isClosedByServer())
        try advance(20)
        try Poll.until("no connection open") { server.openConnections == 0 }
        #expect(uploading.isClosedByServer())
    }
}
