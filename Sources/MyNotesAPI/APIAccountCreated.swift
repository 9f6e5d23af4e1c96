/// The answer to `POST /api/v1/accounts`: `{"email":"ann@example.com","token":"…"}`, the
/// account signed in at once.
public struct APIAccountCreated: Codable, Sendable, Hashable {
    public var email: String
    public var token: String

    public init(email: String, token: String) {
        self.email = email
        self.token = token
    }
}
