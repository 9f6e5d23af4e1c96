import ServerLogging

/// What travels with a request through middleware and responders: the path's
/// parameters, the request's ID and a logger whose lines carry that ID.
///
/// ```swift
/// router.on("/hello", methods: [.get]) { _, context in
///     context.logger.info("saying hello")  // … request_id=3f2a9c1b7d4e6a80-1a
///     return HTTPResponse(status: .ok, contentType: "text/plain", body: Array("hi".utf8))
/// }
/// ```
public struct RequestContext: Sendable {
    /// Values of the `{name}` segments of the matched path pattern.
    public var parameters: [String: String]
    /// Set by ``RequestIDMiddleware``: the client's `X-Request-ID` when well-formed,
    /// else one made here.
    public var requestID: String?
    public var logger: Logger

    public init(
        parameters: [String: String] = [:], requestID: String? = nil,
        logger: Logger = .disabled
    ) {
        self.parameters = parameters
        self.requestID = requestID
        self.logger = logger
    }
}
