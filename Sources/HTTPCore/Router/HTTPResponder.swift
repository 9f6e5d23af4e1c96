/// Anything that turns a request into a response. Called for many requests at once,
/// so it must be thread-safe. It is `async`: a responder that waits (for the store,
/// for a password hash) suspends its task, and the connection's thread serves other
/// connections meanwhile.
///
/// ```swift
/// let hello = ClosureResponder { _, _ in
///     HTTPResponse(status: .ok, contentType: "text/plain", body: Array("hi".utf8))
/// }
/// let response = await hello.respond(to: request, context: RequestContext())
/// ```
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse
}

/// A responder made from a closure.
public struct ClosureResponder: HTTPResponder {
    let body: @Sendable (HTTPRequest, RequestContext) async -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest, RequestContext) async -> HTTPResponse) {
        self.body = body
    }

    public func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        await body(request, context)
    }
}
