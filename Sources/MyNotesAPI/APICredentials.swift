/// The body of `POST /api/v1/accounts` (sign-up) and `POST /api/v1/sessions` (sign-in):
/// `{"email":"ann@example.com","password":"…"}`.
public struct APICredentials: Codable, Sendable, Hashable {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}
