/// The answer to `POST /api/v1/sessions`: `{"token":"…"}`, the bearer token of the new
/// session (the document's `Session` schema).
public struct APISessionToken: Codable, Sendable, Hashable {
    public var token: String

    public init(token: String) {
        self.token = token
    }
}
