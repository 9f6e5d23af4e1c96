import Secrets

/// One live token of an account as its owner sees it: never the token, nor its hash, but
/// an ID derived from the hash (for revoking it), what issued it, and its times in
/// milliseconds since 1970.
///
/// ```swift
/// for session in try await sessions.sessions(token: token) where !session.isCurrent {
///     try await sessions.revokeSession(id: session.id, token: token)
/// }
/// ```
public struct SessionSummary: Sendable, Hashable {
    /// 16 hex digits: the first 8 bytes of the SHA-256 of the token's hash.
    public var id: String
    public var kind: TokenKind
    public var createdAt: Int64
    public var lastUsedAt: Int64
    /// When it ends if not used again; `nil` for never (an access key, or no lifetimes).
    public var expiresAt: Int64?
    /// Whether it is the token the request came with.
    public var isCurrent: Bool

    package init(_ session: Session, lifetime: SessionLifetime, current: [UInt8]) {
        id = Self.id(of: session.tokenHash)
        kind = session.kind
        createdAt = session.createdAt
        lastUsedAt = session.lastUsedAt
        expiresAt = lifetime.expiry(of: session)
        isCurrent = session.tokenHash == current
    }

    /// A public name for a token that cannot be turned back into it or its hash.
    package static func id(of tokenHash: [UInt8]) -> String {
        SHA256.hash(tokenHash).prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
