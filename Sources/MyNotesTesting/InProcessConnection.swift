import BoundedExecution
import Foundation
import HTTPCore
import Locking

/// Hands each request to a responder in this process, with no socket: the request is
/// parsed from the same bytes a socket would carry and built as the server builds it
/// (raw target, headers in order, peer `127.0.0.1`), and the answer gets the
/// `Content-Length` the server adds (a streamed answer is read whole and marked chunked)
/// and its ``HTTPResponse/alwaysSentFields``, without a body for `HEAD`.
///
/// It checks only what the server checks before routing by size (the target, the
/// header section, the declared body); framing errors are the socket tests' subject.
///
/// The responder runs on a thread of its own with the stack a server thread has, not on
/// the caller's: a test's task runs on a thread of the concurrency pool, whose stack is
/// far smaller, and the service's deepest work (serializing the OpenAPI document) would
/// overflow it there and nowhere in production.
///
/// ```swift
/// let connection = InProcessConnection(responder: router, limits: ServerConfiguration())
/// let response = try connection.send("GET /nowhere HTTP/1.1\r\nHost: t\r\n\r\n")  // 404
/// ```
public final class InProcessConnection: HTTPConnection, Sendable {
    public enum Failure: Error {
        case malformedRequest(String)
        /// The responder had not answered after a minute.
        case noAnswer
    }

    private let responder: any HTTPResponder
    private let limits: ServerConfiguration

    public init(responder: any HTTPResponder, limits: ServerConfiguration) {
        self.responder = responder
        self.limits = limits
    }

    public func send(_ bytes: [UInt8]) throws -> RawHTTPClient.Response {
        let wire = try WireRequest(parsing: bytes)
        let response = try responder(for: wire)
        var headers = (response.headers.map { $0 } + response.missingAlwaysSentFields).map {
            (name: $0.name, value: $0.value)
        }
        var body = response.body
        if let stream = response.stream {
            // Sent chunked, as the server does; a stream that breaks off is a closed connection.
            headers.append((name: "Transfer-Encoding", value: "chunked"))
            guard let streamed = stream.drain() else { throw Failure.noAnswer }
            body = streamed
        } else {
            headers.append((name: "Content-Length", value: String(response.body.count)))
        }
        return RawHTTPClient.Response(
            status: Int(response.status.rawValue), headers: headers,
            body: wire.method == .head ? [] : body)
    }

    private func responder(for wire: WireRequest) throws(Failure) -> HTTPResponse {
        if wire.target.count > limits.maxRequestTargetBytes { return .plain(.uriTooLong) }
        if wire.headerBytes > limits.maxHeaderBytes { return .plain(.requestHeaderFieldsTooLarge) }
        if wire.body.count > limits.maxBodyBytes { return .plain(.contentTooLarge) }
        let request = HTTPRequest(
            method: wire.method, target: wire.target, headers: wire.headers, body: wire.body,
            clientAddress: "127.0.0.1")
        let answer = Lock<HTTPResponse?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let thread = Thread { [responder] in
            // The responder is async: it runs as a task on a thread of its own, as the
            // server's do once they wait, never on Swift's cooperative pool.
            let worker = BoundedExecutor(
                name: "in-process", limits: ExecutorLimits(threads: 1, queueLimit: 1))
            let response = worker.wait {
                await responder.respond(to: request, context: RequestContext())
            }
            worker.close()
            answer.withLock { $0 = response }
            answered.signal()
        }
        thread.stackSize = Self.serverThreadStackBytes
        thread.start()
        guard answered.wait(timeout: .now() + 60) == .success else { throw .noAnswer }
        return answer.withLock { $0! }
    }

    /// The system's default stack for a new thread, what the server's executor threads
    /// get (its event-loop threads, where responders start, get 4 MiB).
    static let serverThreadStackBytes = 8 << 20
}

/// A request as a test wrote it on the wire: request line, header fields, and a body
/// framed by `Content-Length` or chunked.
struct WireRequest {
    var method: HTTPMethod
    var target: [UInt8]
    var headers = HTTPHeaders()
    /// The header fields' bytes as the server counts them (name, value, 4 more each).
    var headerBytes = 0
    var body: [UInt8] = []

    init(parsing bytes: [UInt8]) throws {
        let crlf: [UInt8] = [13, 10]
        guard let headEnd = bytes.firstRange(of: crlf + crlf) else {
            throw InProcessConnection.Failure.malformedRequest("no end of the header section")
        }
        var lines = bytes[..<headEnd.lowerBound].split(
            separator: 10, omittingEmptySubsequences: false
        ).map { $0.last == 13 ? $0.dropLast() : $0 }
        let requestLine = lines.removeFirst().split(separator: 32)
        guard requestLine.count == 3 else {
            throw InProcessConnection.Failure.malformedRequest("request line")
        }
        method = HTTPMethod(rawValue: String(decoding: requestLine[0], as: UTF8.self))
        target = Array(requestLine[1])
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw InProcessConnection.Failure.malformedRequest("header line")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            headers.add(name, value)
            headerBytes += name.utf8.count + value.utf8.count + 4
        }
        let rest = bytes[headEnd.upperBound...]
        if headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            body = try Self.dechunk(rest)
        } else if let length = headers["Content-Length"].flatMap({ Int($0) }) {
            guard rest.count >= length else {
                throw InProcessConnection.Failure.malformedRequest("body shorter than declared")
            }
            body = Array(rest.prefix(length))
        }
    }

    private static func dechunk(_ bytes: ArraySlice<UInt8>) throws -> [UInt8] {
        var rest = bytes
        var body: [UInt8] = []
        while let lineEnd = rest.firstRange(of: [13, 10]) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16),
                rest.endIndex >= lineEnd.upperBound + size + 2
            else { throw InProcessConnection.Failure.malformedRequest("chunk size") }
            if size == 0 { return body }
            body += rest[lineEnd.upperBound..<(lineEnd.upperBound + size)]
            rest = rest[(lineEnd.upperBound + size + 2)...]
        }
        throw InProcessConnection.Failure.malformedRequest("no last chunk")
    }
}
