import Foundation
import PercentEncoding

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call of REST API v1, before it becomes a `URLRequest`.
struct RESTRequest: Sendable {
    enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"
    }

    var method: Method
    /// The path below `/api/v1`, e.g. `["notes", "12"]`.
    var path: [String]
    var query: [(String, String)] = []
    var body: Data?
    var ifMatch: String?

    /// A request with a JSON body, encoded with sorted keys so the bytes are the same every time.
    init(
        _ method: Method, _ path: [String], query: [(String, String)] = [],
        json: (any Encodable)? = nil, ifMatch: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.ifMatch = ifMatch
        if let json { body = try? Self.encoder.encode(json) }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The `URLRequest`: path segments and query values percent-encoded one by one, the
    /// token as `Authorization: Bearer`, the language as `Accept-Language`.
    func urlRequest(for configuration: NotesAPIClient.Configuration) -> URLRequest {
        var text = configuration.baseURL.absoluteString
        if text.hasSuffix("/") { text.removeLast() }
        for segment in path { text += "/" + PercentEncoder.unreserved.encode(segment) }
        if !query.isEmpty {
            var parameters = QueryString()
            for (name, value) in query { parameters.append(name, value) }
            text += "?" + parameters.encoded(using: .queryValue)
        }
        var request = URLRequest(url: URL(string: text)!)
        request.httpMethod = method.rawValue
        request.httpBody = body
        if body != nil {
            request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
        }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token = configuration.token {
            request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
        }
        if let ifMatch { request.setValue(ifMatch, forHTTPHeaderField: "If-Match") }
        request.setValue(configuration.language.rawValue, forHTTPHeaderField: "Accept-Language")
        request.timeoutInterval = RequestEngine.backstop(configuration.timeout)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        return request
    }
}
