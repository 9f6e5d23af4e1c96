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
        do {
            return try operation(request, context)
        } catch {
            return error.response(
                language: MessageLanguage(
                    acceptLanguage: LegacyHandler.acceptLanguage(of: request)))
        }
    }
}

extension RESTProblem {
    static let contentType = "application/problem+json; charset=utf-8"

    /// The problem as an RFC 9457 response.
    func response(language: MessageLanguage) -> HTTPResponse {
        var body = JSONObjectWriter()
        body.string("type", "about:blank")
        body.string("title", status.reasonPhrase)
        body.integer("status", Int64(status.rawValue))
        body.integer("code", Int64(code))
        body.string("detail", message.text(in: language))
        var response = HTTPResponse(
            status: status, contentType: Self.contentType, body: body.finish())
        for (name, value) in headers { response.headers[name] = value }
        response.headers["Content-Language"] = language.rawValue
        return response
    }
}
