/// An HTTP status code with its reason phrase.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let ok = HTTPStatus(rawValue: 200)
    public static let created = HTTPStatus(rawValue: 201)
    public static let noContent = HTTPStatus(rawValue: 204)
    public static let notModified = HTTPStatus(rawValue: 304)
    public static let badRequest = HTTPStatus(rawValue: 400)
    public static let unauthorized = HTTPStatus(rawValue: 401)
    public static let forbidden = HTTPStatus(rawValue: 403)
    public static let notFound = HTTPStatus(rawValue: 404)
    public static let methodNotAllowed = HTTPStatus(rawValue: 405)
    public static let conflict = HTTPStatus(rawValue: 409)
    public static let gone = HTTPStatus(rawValue: 410)
    public static let preconditionFailed = HTTPStatus(rawValue: 412)
    public static let contentTooLarge = HTTPStatus(rawValue: 413)
    public static let uriTooLong = HTTPStatus(rawValue: 414)
    public static let unsupportedMediaType = HTTPStatus(rawValue: 415)
    public static let misdirectedRequest = HTTPStatus(rawValue: 421)
    public static let unprocessableContent = HTTPStatus(rawValue: 422)
    public static let tooManyRequests = HTTPStatus(rawValue: 429)
    public static let requestHeaderFieldsTooLarge = HTTPStatus(rawValue: 431)
    public static let internalServerError = HTTPStatus(rawValue: 500)
    public static let serviceUnavailable = HTTPStatus(rawValue: 503)

    /// The standard reason phrase, used as the body of plain error responses.
    public var reasonPhrase: String {
        switch rawValue {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(rawValue)"
        }
    }

    public var description: String { "\(rawValue) \(reasonPhrase)" }
}
