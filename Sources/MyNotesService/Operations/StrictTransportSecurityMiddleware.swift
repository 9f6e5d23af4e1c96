import HTTPCore

/// Adds `Strict-Transport-Security` to the browser app's answers when the server speaks
/// TLS, so a browser that once reached it over HTTPS never falls back to plain HTTP.
/// API answers do not need it: programs do not follow the header.
///
/// ```swift
/// router.add(middleware: StrictTransportSecurityMiddleware(maxAge: .seconds(31_536_000)))
/// ```
struct StrictTransportSecurityMiddleware: HTTPMiddleware {
    let value: String

    init(maxAge: Duration) {
        value = "max-age=\(maxAge.components.seconds)"
    }

    func respond(
        to request: HTTPRequest, context: RequestContext, next: Next
    ) async -> HTTPResponse {
        var response = await next.respond(to: request, context: context)
        if request.path == WebAppHandler.indexPath || request.path.hasPrefix("/assets/") {
            response.headers["Strict-Transport-Security"] = value
        }
        return response
    }
}
