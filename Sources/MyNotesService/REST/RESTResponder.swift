import HTTPCore
import MyNotesProtocol

/// One REST resource (a path) and its operations by method. Every answer goes through
/// here, so a ``RESTProblem`` thrown anywhere is rendered the same way, in one place.
struct RESTResponder: HTTPResponder {
    typealias Operation =
        @Sendable (HTTPRequest, RequestContext) throws(RESTProblem) -> HTTPResponse

    let operations: [HTTPMethod: Operation]

    func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        guard let operation = operations[request.method] else { return .plain(.methodNotAllowed) }
        var response: HTTPResponse
        do {
            response = try operation(request, context)
        } catch {
            response = error.response(
                language: MessageLanguage(
                    acceptLanguage: LegacyHandler.acceptLanguage(of: request)))
        }
        // Notes are user text: no browser may guess them into HTML.
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
    }
}
