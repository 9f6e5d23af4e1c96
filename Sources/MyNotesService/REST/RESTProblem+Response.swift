import HTTPCore
import MyNotesProtocol

extension RESTProblem {
    static let contentType = "application/problem+json; charset=utf-8"

    /// The problem as an RFC 9457 response.
    func response(language: MessageLanguage) -> HTTPResponse {
        var body = JSONObjectWriter()
        body.string("type", type)
        body.string("title", status.reasonPhrase)
        body.integer("status", Int64(status.rawValue))
        body.integer("code", Int64(code))
        body.string("detail", message.text(in: language))
        if let currentVersion { body.integer("currentVersion", currentVersion) }
        var response = HTTPResponse(
            status: status, contentType: Self.contentType, body: body.finish())
        for (name, value) in headers { response.headers[name] = value }
        response.headers["Content-Language"] = language.rawValue
        return response
    }
}
