import Foundation
import HTTPCore
import Locking
import MyNotesTesting
import Synchronization
import Testing

/// Responses whose body a producer writes while it is sent: order, back-pressure from a
/// slow client, and a clean end when the client leaves or the server stops.
///
/// The producers run on threads of their own (``StreamingBody/blockingWrite(_:)``): these
/// tests block while they read, and could hold every thread tasks run on.
@Suite struct StreamingResponseTests {
    /// What a producer did, for the test to wait on.
    final class Probe: Sendable {
        let accepted = Atomic<Int>(0)
        let wasFull = Atomic<Bool>(false)
        let failure = Lock<StreamingBodyError?>(nil)
        let termination = Lock<StreamingBody.Termination?>(nil)
        let producing = Lock<StreamingBody?>(nil)
    }

    static let megabyte = 1 << 20

    static func startServer(
        probe: Probe, _ adjust: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> HTTPServer {
        var router = Router()
        // `count` numbered lines, then the end.
        router.on("/lines", methods: [.get]) { request, _ in
            let count = request.rawQuery.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
            let body = StreamingBody(bufferBytes: 256)
            body.onTermination = { termination in probe.termination.withLock { $0 = termination } }
            Thread {
                for line in 0..<count {
                    guard (try? body.blockingWrite(Array("line \(line)\n".utf8))) != nil else {
                        return
                    }
                }
                body.finish()
            }.start()
            return HTTPResponse(status: .ok, contentType: "text/plain", stream: body)
        }
        // 24 MiB in 64 KiB blocks, block n filled with byte n % 251: written without waiting
        // until the buffer is full, then waiting for room.
        router.on("/flood", methods: [.get]) { _, _ in
            let body = StreamingBody(bufferBytes: 64 << 10)
            Thread {
                for block in 0..<(24 * 16) {
                    let bytes = [UInt8](repeating: UInt8(block % 251), count: 64 << 10)
                    if !probe.wasFull.load(ordering: .acquiring) {
                        switch body.tryWrite(bytes) {
                        case .written:
                            probe.accepted.add(bytes.count, ordering: .releasing)
                            continue
                        case .full: probe.wasFull.store(true, ordering: .releasing)
                        case .closed: return
                        }
                    }
                    do { try body.blockingWrite(bytes) } catch { return }
                }
                body.finish()
            }.start()
            return HTTPResponse(status: .ok, contentType: "application/octet-stream", stream: body)
        }
        // Writes until a write fails, then records why.
        router.on("/endless", methods: [.get]) { _, _ in
            let body = StreamingBody(bufferBytes: 4 << 10)
            body.onTermination = { termination in probe.termination.withLock { $0 = termination } }
            Thread {
                do throws(StreamingBodyError) {
                    while true { try body.blockingWrite(Array("tick\n".utf8)) }
                } catch {
                    probe.failure.withLock { $0 = error }
                }
            }.start()
            return HTTPResponse(status: .ok, contentType: "text/plain", stream: body)
        }
        // One line, then silence until the test writes through `probe.producing`.
        router.on("/quiet", methods: [.get]) { _, _ in
            let body = StreamingBody(bufferBytes: 4 << 10)
            body.onTermination = { termination in probe.termination.withLock { $0 = termination } }
            body.tryWrite(Array("hello\n".utf8))
            probe.producing.withLock { $0 = body }
            return HTTPResponse(status: .ok, contentType: "text/plain", stream: body)
        }
        // 2 MiB from a task, in 16 KiB writes that suspend while the buffer is full.
        router.on("/from-task", methods: [.get]) { _, _ in
            let body = StreamingBody(bufferBytes: 32 << 10)
            body.onTermination = { termination in probe.termination.withLock { $0 = termination } }
            Task {
                for block in 0..<128 {
                    let bytes = [UInt8](repeating: UInt8(block), count: 16 << 10)
                    do { try await body.write(bytes) } catch { return }
                }
                body.finish()
            }
            return HTTPResponse(status: .ok, contentType: "application/octet-stream", stream: body)
        }
        router.on("/plain", methods: [.get]) { _, _ in
            HTTPResponse(status: .ok, contentType: "text/plain", body: Array("plain".utf8))
        }
        return try HTTPServer.onLoopback(router, adjust)
    }

    @Test(arguments: [0, 1, 1_000])
    func streamsEveryChunkInOrderAndKeepsTheConnection(count: Int) throws {
        let probe = Probe()
        let server = try Self.startServer(probe: probe)
        let client = try RawHTTPClient(port: server.port)
        let response = try client.send("GET /lines?\(count) HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.header("Transfer-Encoding")?.lowercased() == "chunked")
        #expect(response.text == (0..<count).map { "line \($0)\n" }.joined())
        try Poll.until("the stream finished") { probe.termination.withLock { $0 } == .finished }
        // The same connection serves the next request.
        #expect(try client.send("GET /plain HTTP/1.1\r\nHost: t\r\n\r\n").text == "plain")
    }

    @Test func aProducerTaskSuspendsWhileTheBufferIsFull() async throws {
        let probe = Probe()
        let server = try Self.startServer(probe: probe)
        let port = server.port
        // The client reads on a thread of its own, so that no task's thread blocks.
        let response = try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try RawHTTPClient(port: port).send(
                            "GET /from-task HTTP/1.1\r\nHost: t\r\n\r\n")
                    })
            }.start()
        }
        #expect(response.status == 200)
        #expect(response.body.count == 128 << 14)
        #expect(
            response.body == (0..<128).flatMap { [UInt8](repeating: UInt8($0), count: 16 << 10) })
        try Poll.until("the stream finished") { probe.termination.withLock { $0 } == .finished }
    }

    @Test func aClientThatDoesNotReadMakesTheProducerWait() throws {
        let probe = Probe()
        let server = try Self.startServer(probe: probe)
        let client = try RawHTTPClient(port: server.port)
        #expect(client.write("GET /flood HTTP/1.1\r\nHost: t\r\n\r\n"))
        // Given a client that does not read, the producer meets a full buffer while what
        // it got rid of is bounded by the socket buffers, far below the 24 MiB it has
        try Poll.until("the producer meeting a full buffer") {
            probe.wasFull.load(ordering: .acquiring)
        }
        let accepted = probe.accepted.load(ordering: .acquiring)
        #expect(accepted < 12 * Self.megabyte, "\(accepted) bytes accepted")
        // When the client reads, it gets everything, in order
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.body.count == 24 * Self.megabyte)
        let blockSize = 64 << 10
        let outOfOrder = stride(from: 0, to: response.body.count, by: blockSize).first { start in
            let expected = UInt8((start / blockSize) % 251)
            return response.body[start] != expected
                || response.body[start + blockSize - 1] != expected
        }
        #expect(outOfOrder == nil)
    }

    @Test func aClientThatLeavesEndsTheProducerAndTheServerGoesOn() throws {
        let probe = Probe()
        let server = try Self.startServer(probe: probe)
        // Given a client that reads the start of an endless stream, then hangs up
        let client = try Self.connect(port: server.port, request: "/endless")
        #expect(client.receive { $0.count >= 1_000 }.count >= 1_000)
        client.hangUp(1)
        // Then the producer's next write fails, and the stream ends abandoned
        try Poll.until("a write failing with .closed") { probe.failure.withLock { $0 } == .closed }
        try Poll.until("the stream abandoned") { probe.termination.withLock { $0 } == .abandoned }
        try Poll.until("no request in flight") { server.requestsInFlight == 0 }
        // And the server serves the next client
        let other = try RawHTTPClient(port: server.port)
        #expect(try other.send("GET /plain HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
    }

    @Test func aClientThatLeavesWhileTheProducerIsSilentIsFoundAtTheNextWrite() throws {
        let probe = Probe()
        let server = try Self.startServer(probe: probe)
        let client = try Self.connect(port: server.port, request: "/quiet")
        #expect(Self.hasHello(client.receive(until: Self.hasHello)))
        client.hangUp(1)
        let body = try #require(probe.producing.withLock { $0 })
        // The connection is suspended and does not see the client leave; writes do.
        try Poll.until("a write finds the stream closed") {
            _ = body.tryWrite(Array("still there?\n".utf8))
            return body.isClosed
        }
        try Poll.until("the stream abandoned") { probe.termination.withLock { $0 } == .abandoned }
        try Poll.until("no request in flight") { server.requestsInFlight == 0 }
    }

    @Test func shutdownEndsAStreamWaitingForItsProducer() throws {
        let probe = Probe()
        let server = try Self.startServer(probe: probe) { $0.shutdownGracePeriod = .zero }
        let client = try Self.connect(port: server.port, request: "/quiet")
        #expect(Self.hasHello(client.receive(until: Self.hasHello)))
        let body = try #require(probe.producing.withLock { $0 })
        // When the server stops while the connection waits for the producer
        server.shutdown()
        // Then the stream has ended and the producer is told so
        #expect(body.tryWrite(Array("late\n".utf8)) == .closed)
        try Poll.until("the stream abandoned") { probe.termination.withLock { $0 } == .abandoned }
        try Poll.until("the client's connection closed") { client.closedCount() == 1 }
    }

    /// Whether the quiet stream's first line has come.
    static func hasHello(_ received: [UInt8]) -> Bool {
        String(decoding: received, as: UTF8.self).contains("hello")
    }

    /// A raw connection that has sent a GET for `path`, for tests that read part of a
    /// response or hang up in the middle of one.
    static func connect(port: Int, request path: String) throws -> SocketSwarm {
        let client = try SocketSwarm(count: 1, from: "127.0.0.1", port: port)
        #expect(client.waitUntilConnected())
        client.send(Array("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        return client
    }
}
