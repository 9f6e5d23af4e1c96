/// An account: the owner of notes, identified by its email.
///
/// Its access tokens live apart from it (an account holds many: one per session and
/// the operator's); only their SHA-256 is stored.
public struct Account: Sendable, Hashable {
    public var id: Int64
    /// The email as it was registered; lookups ignore ASCII case.
    public var email: String
    /// The encoded password hash (see `PasswordHasher` in Secrets), or `nil` for an
    /// account made by the operator that has not set one: it cannot sign in.
    public var passwordHash: String?
    /// When the account was created, in milliseconds since 1970 (UTC).
    public var createdAt: Int64

    public init(id: Int64, email: String, passwordHash: String? = nil, createdAt: Int64) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}
