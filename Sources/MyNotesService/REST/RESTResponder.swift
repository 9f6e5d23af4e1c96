import HTTPCore
import MyNotesProtocol

/// One REST operation (a method on a path). Every answer goes through here, so a
/// ``RESTProblem`` thrown anywhere is rendered the same way, in one place.
struct RESTResponder: HTTPResponder {
    typealias Operation =
        @Sendable (HTTPRequest, RequestContext) async throws(RESTProblem) -> HTTPResponse

    let operation: Operation

    func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try await operation(request, context)
        } catch {
            if let cause = error.cause {
                context.logger.error(
                    "request failed",
                    [
                        "method": request.method.rawValue, "path": request.path,
                        "status": String(error.status.rawValue), "cause": cause,
                    ])
            }
            response = error.response(language: MessageLanguage(request: request))
        }
        // Notes are user text: no browser may guess them into HTML.
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
    }
}
