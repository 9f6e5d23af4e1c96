/// An HTTP response to send: status, header fields and a body held in memory.
///
/// ```swift
/// HTTPResponse(status: .ok, contentType: "text/plain; charset=utf-8", body: Array("hi".utf8))
/// ```
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: HTTPStatus, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: ["Content-Type": contentType], body: body)
    }

    /// A plain-text error response whose body is the status line, for requests that
    /// are not protocol answers at all (malformed, too large, unknown path).
    public static func plain(_ status: HTTPStatus) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "text/plain; charset=utf-8",
            body: Array("\(status)\n".utf8))
    }
}
