/// A failure as REST API v1 answers it, `application/problem+json` (RFC 9457):
/// `{"type":"about:blank","title":"Not Found","status":404,"code":-7,"detail":"No such note."}`.
///
/// The server writes the first five members always and `currentVersion` on a `412`. Each
/// is optional here as in RFC 9457, so that a client still reads a problem that a proxy or
/// another server wrote with fewer members.
public struct APIProblem: Codable, Sendable, Hashable {
    public var type: String?
    /// The status's reason phrase.
    public var title: String?
    public var status: Int?
    /// Stable and numeric: the legacy ResultCode where one fits, else the HTTP status.
    public var code: Int?
    /// For people, in the request's `Accept-Language`.
    public var detail: String?
    /// On a `412`: the version the note is at now.
    public var currentVersion: Int64?

    public init(
        type: String? = nil, title: String? = nil, status: Int? = nil, code: Int? = nil,
        detail: String? = nil, currentVersion: Int64? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.code = code
        self.detail = detail
        self.currentVersion = currentVersion
    }
}
