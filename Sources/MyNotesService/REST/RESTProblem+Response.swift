import HTTPCore
import MyNotesProtocol

extension RESTProblem {
    static let contentType = "application/problem+json; charset=utf-8"

    /// The problem as an RFC 9457 response.
    func response(language: MessageLanguage) -> HTTPResponse {
        var body = JSONObjectWriter()
        body.string("type", "about:blank")
        body.string("title", Self.title(of: status))
        body.integer("status", Int64(status.rawValue))
        body.integer("code", Int64(code))
        body.string("detail", message.text(in: language))
        var response = HTTPResponse(
            status: status, contentType: Self.contentType, body: body.finish())
        for (name, value) in headers { response.headers[name] = value }
        response.headers["Content-Language"] = language.rawValue
        return response
    }

    /// The status's reason phrase; HTTPCore's table lacks the two only this API answers.
    static func title(of status: HTTPStatus) -> String {
        switch status.rawValue {
        case 403: "Forbidden"
        case 409: "Conflict"
        default: status.reasonPhrase
        }
    }
}
