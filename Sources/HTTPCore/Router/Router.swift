/// Sends each request through its middleware, in the order added, to the responder
/// registered for its path and method.
///
/// Paths are matched as sent, segment by segment (see ``HTTPRequest/rawPath``): an
/// encoded `/` never splits a segment. A path nobody registered is 404; a registered path with another method is 405
/// with an `Allow` header naming the methods it has. Middleware sees those answers too.
///
/// ```swift
/// var router = Router()
/// router.on("/hello", methods: [.get]) { _, _ in
///     HTTPResponse(status: .ok, contentType: "text/plain", body: Array("hi".utf8))
/// }
/// ```
public struct Router: HTTPResponder {
    struct Route: Sendable {
        let pattern: PathPattern
        var responders: [HTTPMethod: any HTTPResponder]
        /// Its metrics, made once here so a request finds them without a lookup.
        let statistics: RouteStatistics

        init(pattern: PathPattern, responders: [HTTPMethod: any HTTPResponder]) {
            self.pattern = pattern
            self.responders = responders
            statistics = RouteStatistics(route: pattern.text)
        }
    }

    private var routes: [Route] = []
    private var middleware: [any HTTPMiddleware] = []

    public init() {}

    /// Registers `responder` for `methods` on `path`.
    public mutating func on(
        _ path: PathPattern, methods: [HTTPMethod], responder: any HTTPResponder
    ) {
        var route = Route(pattern: path, responders: [:])
        for method in methods { route.responders[method] = responder }
        routes.append(route)
    }

    /// Registers a responder for each method on `path`.
    ///
    /// ```swift
    /// router.on(PathPattern("/items/{id}"), responders: [.get: show, .delete: remove])
    /// ```
    public mutating func on(_ path: PathPattern, responders: [HTTPMethod: any HTTPResponder]) {
        routes.append(Route(pattern: path, responders: responders))
    }

    /// Registers a closure for `methods` on the exact `path`.
    public mutating func on(
        _ path: String, methods: [HTTPMethod],
        _ body: @escaping @Sendable (HTTPRequest, RequestContext) async -> HTTPResponse
    ) {
        on(PathPattern(path), methods: methods, responder: ClosureResponder(body))
    }

    /// Adds `middleware` around every route; the first added sees the request first.
    public mutating func add(middleware: any HTTPMiddleware) {
        self.middleware.append(middleware)
    }

    public func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        await respond(to: request, context: context, from: 0)
    }

    /// Each route's metrics, in the order registered (see ``RequestMetrics``).
    public var routeStatistics: [RouteStatistics] { routes.map(\.statistics) }

    /// The chain from the middleware at `index` on; past the last, the routes.
    func respond(
        to request: HTTPRequest, context: RequestContext, from index: Int
    ) async -> HTTPResponse {
        guard index < middleware.count else { return await route(request, context: context) }
        return await middleware[index].respond(
            to: request, context: context, next: HTTPMiddlewareNext(router: self, index: index + 1))
    }

    private func route(_ request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        for route in routes {
            guard let parameters = route.pattern.match(request.rawPath) else { continue }
            guard let responder = route.responders[request.method] else {
                var response = HTTPResponse.plain(.methodNotAllowed)
                response.headers["Allow"] = Self.allowHeader(route.responders.keys)
                response.route = route.statistics
                return response
            }
            var context = context
            context.parameters.merge(parameters) { _, new in new }
            var response = await responder.respond(to: request, context: context)
            response.route = route.statistics
            return response
        }
        return .plain(.notFound)
    }

    private static let methodOrder: [HTTPMethod] = [
        .get, .head, .post, .put, .patch, .delete, .options,
    ]

    static func allowHeader(_ methods: some Sequence<HTTPMethod>) -> String {
        let set = Set(methods)
        let known = methodOrder.filter(set.contains)
        let others = set.subtracting(methodOrder).map(\.rawValue).sorted()
        return (known.map(\.rawValue) + others).joined(separator: ", ")
    }
}
