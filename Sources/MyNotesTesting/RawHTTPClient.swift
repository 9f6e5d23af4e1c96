import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A bare HTTP/1.1 client over a TCP socket, for tests that must control every byte
/// a careless or hostile client sends, and see every byte that comes back.
///
/// ```swift
/// let client = try RawHTTPClient(port: server.port)
/// let response = try client.send("GET /mynotes/webservice.php?action=query HTTP/1.1\r\nHost: x\r\n\r\n")
/// response.status  // 200
/// ```
public final class RawHTTPClient: HTTPConnection {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public var text: String { String(decoding: body, as: UTF8.self) }

        public func header(_ name: String) -> String? {
            headers.last { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    public enum Failure: Error {
        case cannotConnect(Int32)
        case closed
        case malformedResponse(String)
        case timedOut
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// How long a read waits by default: a bound for a server that never answers, not a
    /// speed test. Generous because a server's answer may wait on password hashes, which
    /// take seconds under AddressSanitizer on a machine running the whole suite (10 s once
    /// failed a CI run).
    public static let defaultTimeoutSeconds = 60

    /// Reads time out after `timeoutSeconds` (``defaultTimeoutSeconds``).
    public init(port: Int, timeoutSeconds: Int = defaultTimeoutSeconds) throws {
        descriptor = try Self.connectedSocket(port: port, timeoutSeconds: timeoutSeconds)
    }

    /// A TCP socket connected to `port` on 127.0.0.1, whose reads time out after
    /// `timeoutSeconds` (0: never), with a receive buffer of `receiveBuffer` bytes when
    /// given (a client that reads slowly fills it sooner). The caller closes it.
    public static func connectedSocket(
        port: Int, timeoutSeconds: Int = defaultTimeoutSeconds, receiveBuffer: Int32? = nil
    ) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(
                descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(
            descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure.cannotConnect(errno)
        }
        return descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes bytes as they are. Returns `false` when the server has closed the connection.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Sends a whole request and reads one response (no body after a `HEAD`).
    public func send(_ request: [UInt8]) throws -> Response {
        write(request)
        return try readResponse(expectBody: !request.starts(with: "HEAD ".utf8))
    }

    /// Reads one response; `expectBody: false` for answers to HEAD.
    public func readResponse(expectBody: Bool = true) throws -> Response {
        let headerEnd = try readUntil(Array("\r\n\r\n".utf8))
        let head = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure.malformedResponse(head)
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
        var response = Response(status: status, headers: headers, body: [])
        guard expectBody else { return response }
        if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            try fill(length)
            response.body = Array(buffer.prefix(length))
            buffer.removeFirst(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try readChunked()
        } else {
            while (try? receive()) == true {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Whether the server has closed the connection (reads end of stream).
    public func isClosedByServer() -> Bool {
        (try? receive()) == false
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try readUntil(Array("\r\n".utf8))
            let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self)
            buffer.removeFirst(lineEnd + 2)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else {
                throw Failure.malformedResponse(sizeText)
            }
            try fill(size + 2)
            body.append(contentsOf: buffer.prefix(size))
            buffer.removeFirst(size + 2)
            if size == 0 { return body }
        }
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        while true {
            if let range = buffer.firstRange(of: marker) { return range.lowerBound }
            guard try receive() else { throw Failure.closed }
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count {
            guard try receive() else { throw Failure.closed }
        }
    }

    /// Reads what is available: `false` at end of stream.
    private func receive() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
        if count == 0 { return false }
        if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure.timedOut }
        return false
    }
}
