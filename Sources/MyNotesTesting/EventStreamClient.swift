import BoundedExecution
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A Server-Sent Events client over one TCP connection, for tests of the change stream:
/// it sends one GET, then a thread of its own reads the chunked body as it
/// comes and splits it into blocks (events, comments) that the test awaits one at a time,
/// every wait with a time limit. Each block records when it arrived, for latency figures.
///
/// ```swift
/// let stream = try EventStreamClient(port: server.port, token: token)
/// #expect(try await stream.head().status == 200)
/// let first = try await stream.next()  // retry: 3000, id: 0
/// ```
public final class EventStreamClient: Sendable {
    /// One block of the stream: the fields it set, or the comment it was.
    public struct Block: Sendable {
        public var id: String?
        public var event: String?
        public var data: String?
        public var retry: String?
        public var comment: String?
        /// When the block's last byte arrived.
        public var receivedAt: ContinuousClock.Instant

        /// The `data` parsed as a JSON object (empty when it is none).
        public var json: [String: Any] {
            guard let data else { return [:] }
            return (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
                ?? [:]
        }
    }

    /// The response's status line and header fields.
    public struct Head: Sendable {
        public var status: Int
        public var headers: [String: String]

        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    private struct State: Sendable {
        var head: Head?
        var blocks: [Block] = []
        var taken = 0
        /// The body of a response that is not a stream (a problem), once complete.
        var body: [UInt8] = []
        var ended = false
        /// Whether the chunked body ended with its last, empty chunk (not cut off).
        var endedCleanly = false
    }

    private let state = Observed(State())
    private let descriptor: Int32
    /// Signalled when the reader may start reading.
    private let resumed = DispatchSemaphore(value: 0)

    /// Connects to the server on 127.0.0.1 and sends `GET path` bearing `token`. With
    /// `paused`, nothing is read until ``resume()``: a client that stopped reading.
    public init(
        port: Int, path: String = "/api/v1/changes/stream", token: String?,
        headers: [String: String] = [:], paused: Bool = false
    ) throws {
        // Reads never time out: the waits for blocks have their limits.
        descriptor = try RawHTTPClient.connectedSocket(
            port: port, timeoutSeconds: 0, receiveBuffer: paused ? 4_096 : nil)
        if !paused { resumed.signal() }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        let bytes = Array((request + "\r\n").utf8)
        let sent = bytes.withUnsafeBytes {
            send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        guard sent == bytes.count else {
            close(descriptor)
            throw RawHTTPClient.Failure.closed
        }
        let reader = Thread.named("event-stream") { [self] in read() }
        reader.start()
    }

    deinit {
        close(descriptor)
    }

    /// The response's head, once it has arrived.
    public func head(within timeout: Duration = .seconds(10)) async throws -> Head {
        try await state.wait("the response head", timeout: timeout) { $0.head != nil || $0.ended }
        guard let head = state.read({ $0.head }) else { throw RawHTTPClient.Failure.closed }
        return head
    }

    /// The next block of the stream; throws ``RawHTTPClient/Failure/closed`` once the
    /// stream has ended with no block left.
    public func next(within timeout: Duration = .seconds(10)) async throws -> Block {
        try await state.wait("the next block of the stream", timeout: timeout) {
            $0.blocks.count > $0.taken || $0.ended
        }
        let block = state.update { state -> Block? in
            guard state.blocks.count > state.taken else { return nil }
            defer { state.taken += 1 }
            return state.blocks[state.taken]
        }
        guard let block else { throw RawHTTPClient.Failure.closed }
        return block
    }

    /// The next block that is an event (skipping comments and `id:`-only blocks).
    public func nextEvent(within timeout: Duration = .seconds(10)) async throws -> Block {
        while true {
            let block = try await next(within: timeout)
            if block.data != nil { return block }
        }
    }

    /// Waits for the server to end the response; the body, when it was not a stream.
    @discardableResult
    public func end(within timeout: Duration = .seconds(10)) async throws -> [UInt8] {
        try await state.wait("the end of the response", timeout: timeout) { $0.ended }
        return state.read { $0.body }
    }

    /// Whether the server has ended the response.
    public var hasEnded: Bool { state.read { $0.ended } }

    /// Whether the stream ended as a complete chunked body (its last, empty chunk came),
    /// rather than cut off with the connection.
    public var endedCleanly: Bool { state.read { $0.endedCleanly } }

    /// Starts reading, for a client made `paused`.
    public func resume() {
        resumed.signal()
    }

    /// Closes the connection, as a client that goes away.
    public func disconnect() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    // MARK: The reader's thread

    private func read() {
        resumed.wait()
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        func receive() -> Bool {
            let count = chunk.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, 0)
            }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
        defer { state.update { $0.ended = true } }
        // The head.
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.firstRange(of: Array("\r\n\r\n".utf8))?.lowerBound
            if headEnd == nil, !receive() { return }
        }
        guard let headEnd, let head = Self.head(buffer[..<headEnd]) else { return }
        buffer.removeFirst(headEnd + 4)
        state.update { $0.head = head }
        if let length = head.header("Content-Length").flatMap({ Int($0) }) {
            while buffer.count < length { guard receive() else { return } }
            state.update { $0.body = Array(buffer.prefix(length)) }
            return
        }
        guard head.header("Transfer-Encoding")?.lowercased() == "chunked" else { return }
        // Chunks, decoded into `text`, split into blocks at each blank line.
        var text: [UInt8] = []
        while true {
            guard let lineEnd = buffer.firstRange(of: Array("\r\n".utf8))?.lowerBound else {
                guard receive() else { return }
                continue
            }
            guard
                let size = Int(
                    String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";")
                        .first ?? "", radix: 16)
            else { return }
            while buffer.count < lineEnd + 2 + size + 2 { guard receive() else { return } }
            if size == 0 {
                state.update { $0.endedCleanly = true }
                return
            }
            text.append(contentsOf: buffer[(lineEnd + 2)..<(lineEnd + 2 + size)])
            buffer.removeFirst(lineEnd + 2 + size + 2)
            var blocks: [Block] = []
            while let end = text.firstRange(of: Array("\n\n".utf8))?.lowerBound {
                blocks.append(Self.block(text[..<end]))
                text.removeFirst(end + 2)
            }
            if !blocks.isEmpty { state.update { $0.blocks.append(contentsOf: blocks) } }
        }
    }

    private static func head(_ bytes: ArraySlice<UInt8>) -> Head? {
        var lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...])
                .trimmingCharacters(in: .whitespaces)
        }
        return Head(status: status, headers: headers)
    }

    private static func block(_ bytes: ArraySlice<UInt8>) -> Block {
        var block = Block(receivedAt: .now)
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix(":") {
                block.comment = String(line.dropFirst()).trimmingCharacters(in: .whitespaces)
                continue
            }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch parts[0] {
            case "id": block.id = value
            case "event": block.event = value
            case "data": block.data = (block.data.map { $0 + "\n" } ?? "") + value
            case "retry": block.retry = value
            default: break
            }
        }
        return block
    }
}
