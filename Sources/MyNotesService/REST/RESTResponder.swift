import HTTPCore
import MyNotesProtocol

/// One REST operation (a method on a path). Every answer goes through here, so the
/// caller's identity is established in one place, and a ``RESTProblem`` thrown anywhere
/// is rendered the same way.
struct RESTResponder: HTTPResponder {
    let operation: RESTOperation
    let authenticator: RESTAuthenticator

    func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try await authenticator.run(operation, request, context)
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
