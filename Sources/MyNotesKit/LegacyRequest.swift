import Foundation
import MyNotesProtocol
import PercentEncoding

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call of the legacy endpoint, before it becomes a `URLRequest`.
struct LegacyRequest: Sendable {
    var action: LegacyAction
    var id: Int?
    var date: NoteDate?
    var content: String?

    /// The `URLRequest`, each name and value percent-encoded on its own: the query
    /// string with the query-value preset, a POST body as a form.
    func urlRequest(for configuration: NotesClient.Configuration) -> URLRequest {
        var parameters = QueryString()
        parameters.append("email", configuration.credentials.email)
        parameters.append("type", configuration.wire.rawValue)
        parameters.append("action", action.rawValue)
        if let id { parameters.append("id", String(id)) }
        if let date { parameters.append("date", date.description) }
        if let content { parameters.append("content", content) }

        var url = configuration.endpoint
        var body: Data?
        switch configuration.method {
        case .get:
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.percentEncodedQuery = parameters.encoded(using: .queryValue)
            url = components.url!
        case .post:
            body = Data(parameters.encoded(using: .form).utf8)
        }
        var request = URLRequest(url: url)
        request.httpMethod = configuration.method.rawValue
        request.httpBody = body
        if body != nil {
            request.setValue(
                "application/x-www-form-urlencoded; charset=utf-8",
                forHTTPHeaderField: "Content-Type")
        }
        if let token = configuration.credentials.token {
            request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
        }
        request.setValue(configuration.language.rawValue, forHTTPHeaderField: "Accept-Language")
        request.setValue(
            configuration.wire == .json ? "application/json" : "text/xml",
            forHTTPHeaderField: "Accept")
        // NotesClient's own timer enforces the timeout; URLSession's (which fires early on
        // some platforms) only backs it up.
        request.timeoutInterval = RequestEngine.backstop(configuration.timeout)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        return request
    }
}
