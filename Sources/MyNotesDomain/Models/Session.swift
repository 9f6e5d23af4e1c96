/// One of an account's access tokens, as the store keeps it: its hash (never the token),
/// what issued it and when it was made and last used. Times are milliseconds since 1970
/// (UTC).
///
/// ```swift
/// for session in try await store.sessions(account: account.id) where session.kind == .session {
///     print(session.createdAt, session.lastUsedAt)
/// }
/// ```
public struct Session: Sendable, Hashable {
    /// The SHA-256 of the token.
    public var tokenHash: [UInt8]
    public var kind: TokenKind
    public var createdAt: Int64
    /// When a request last presented the token: the service records a use at most once a
    /// minute, so reads do not all become writes; a new token's is its `createdAt`.
    public var lastUsedAt: Int64

    public init(tokenHash: [UInt8], kind: TokenKind, createdAt: Int64, lastUsedAt: Int64) {
        self.tokenHash = tokenHash
        self.kind = kind
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// What issued a token, which decides whether time ends it.
///
/// ```swift
/// TokenKind(rawValue: "key")  // .accessKey
/// ```
public enum TokenKind: String, Sendable, Hashable {
    /// A sign-up's or a sign-in's token: it expires when idle or old (the service's
    /// session lifetimes).
    case session
    /// The operator's (`accounts add`, `accounts reset-token`), for legacy apps, which have
    /// no way to sign in again: only revoking ends it.
    case accessKey = "key"
}
