/// Anything that turns a request into a response. Called on the server's worker
/// threads, many at once, so it must be thread-safe.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse
}

/// A responder made from a closure.
public struct ClosureResponder: HTTPResponder {
    let body: @Sendable (HTTPRequest, RequestContext) -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest, RequestContext) -> HTTPResponse) {
        self.body = body
    }

    public func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        body(request, context)
    }
}
