/// Work around every request of a router: it sees the request first and the response
/// last, and calls `next` to go on (or answers itself and does not).
///
/// ```swift
/// struct ServerHeader: HTTPMiddleware {
///     func respond(
///         to request: HTTPRequest, context: RequestContext, next: Next
///     ) async -> HTTPResponse {
///         var response = await next.respond(to: request, context: context)
///         response.headers["Server"] = "Example"
///         return response
///     }
/// }
/// router.add(middleware: ServerHeader())
/// ```
public protocol HTTPMiddleware: Sendable {
    typealias Next = HTTPMiddlewareNext
    func respond(to request: HTTPRequest, context: RequestContext, next: Next) async -> HTTPResponse
}

/// The rest of the chain after a middleware: the next middleware, or the routes.
public struct HTTPMiddlewareNext: Sendable {
    let router: Router
    let index: Int

    public func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        await router.respond(to: request, context: context, from: index)
    }
}
