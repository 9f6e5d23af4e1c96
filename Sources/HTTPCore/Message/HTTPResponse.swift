/// An HTTP response to send: status, header fields and a body, either held in memory or
/// produced while it is sent (``stream``).
///
/// ```swift
/// HTTPResponse(status: .ok, contentType: "text/plain; charset=utf-8", body: Array("hi".utf8))
/// ```
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    /// The body, when it is held in memory; empty for a streamed response.
    public var body: [UInt8]
    /// The body, when it is produced while it is sent (chunked transfer encoding); then
    /// ``body`` is not sent.
    public var stream: StreamingBody?
    /// The route that answered, set by the ``Router``: its metrics, for
    /// ``MetricsMiddleware`` and the access log. `nil` when no route matched.
    public var route: RouteStatistics?

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: HTTPStatus, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: ["Content-Type": contentType], body: body)
    }

    /// A response whose body a producer writes into `stream` while it is sent.
    ///
    /// ```swift
    /// let stream = StreamingBody()
    /// Task { try await stream.write(Array("hello\n".utf8)); stream.finish() }
    /// return HTTPResponse(status: .ok, contentType: "text/plain", stream: stream)
    /// ```
    public init(status: HTTPStatus, contentType: String, stream: StreamingBody) {
        self.init(status: status, headers: ["Content-Type": contentType])
        self.stream = stream
    }

    /// A plain-text error response whose body is the status line, for requests that
    /// are not protocol answers at all (malformed, too large, unknown path).
    public static func plain(_ status: HTTPStatus) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "text/plain; charset=utf-8",
            body: Array("\(status)\n".utf8))
    }
}
