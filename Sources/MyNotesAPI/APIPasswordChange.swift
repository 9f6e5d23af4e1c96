/// The body of `POST /api/v1/account/password`:
/// `{"currentPassword":"…","newPassword":"…"}`.
public struct APIPasswordChange: Codable, Sendable, Hashable {
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}
