/// An account: the owner of notes, identified by its email.
public struct Account: Sendable, Hashable {
    public var id: Int64
    /// The email as it was registered; lookups ignore ASCII case.
    public var email: String
    /// SHA-256 of the account's access token; the token itself is never stored.
    public var tokenHash: [UInt8]
    /// When the account was created, in milliseconds since 1970 (UTC).
    public var createdAt: Int64

    public init(id: Int64, email: String, tokenHash: [UInt8], createdAt: Int64) {
        self.id = id
        self.email = email
        self.tokenHash = tokenHash
        self.createdAt = createdAt
    }
}
