/// Sends each request to the responder registered for its path and method.
///
/// A path nobody registered is 404; a registered path with another method is 405
/// with an `Allow` header naming the methods it has.
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
    }

    private var routes: [Route] = []

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
        _ body: @escaping @Sendable (HTTPRequest, RequestContext) -> HTTPResponse
    ) {
        on(PathPattern(path), methods: methods, responder: ClosureResponder(body))
    }

    public func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        for route in routes {
            guard let parameters = route.pattern.match(request.path) else { continue }
            guard let responder = route.responders[request.method] else {
                var response = HTTPResponse.plain(.methodNotAllowed)
                response.headers["Allow"] = Self.allowHeader(route.responders.keys)
                return response
            }
            var context = context
            context.parameters.merge(parameters) { _, new in new }
            return responder.respond(to: request, context: context)
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
