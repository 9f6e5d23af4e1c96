/// Where a test's HTTP requests go: a real socket (``RawHTTPClient``), or straight to
/// the router in this process (``InProcessConnection``). Test clients hold one of
/// these, so a suite picks its transport in one place and its tests read the same.
///
/// ```swift
/// let connection = try server.connect(.inProcess)
/// let response = try connection.send("GET /api/v1/openapi.json HTTP/1.1\r\nHost: t\r\n\r\n")
/// ```
public protocol HTTPConnection: AnyObject {
    /// Sends one whole request, as bytes on the wire, and reads its response (without a
    /// body when the request was a `HEAD`).
    func send(_ request: [UInt8]) throws -> RawHTTPClient.Response
}

extension HTTPConnection {
    public func send(_ request: String) throws -> RawHTTPClient.Response {
        try send(Array(request.utf8))
    }
}

/// How a test reaches the server: ``socket`` for tests whose subject is HTTP itself
/// (framing, limits, connections, shutdown), ``inProcess`` for the rules behind it.
public enum TestTransport: Sendable, CaseIterable {
    case socket
    case inProcess
}
