/// Sign-in sessions: the tokens of an account as sessions, their use, and their end.
/// Each method is one statement or one short transaction; times are milliseconds since
/// 1970 (UTC), chosen by the caller, whose clock session lifetimes are measured on.
public protocol SessionStore: Sendable {
    /// Every token of the account, oldest first (expired ones included: the caller judges).
    func sessions(account: Int64) async throws(StoreError) -> [Session]
    /// Records that the token was presented at `usedAt` (never moving its time back).
    /// The service calls it at most once a minute per token.
    func touchToken(_ tokenHash: [UInt8], usedAt: Int64) async throws(StoreError)
    /// Revokes every token of the account except `keeping` (all when `nil`); returns how
    /// many were revoked.
    func removeTokens(account: Int64, keeping: [UInt8]?) async throws(StoreError) -> Int
    /// Removes every ``TokenKind/session`` token last used before `lastUsedBefore` or
    /// made before `createdBefore` (a `nil` bound removes nothing by itself); returns how
    /// many. Access keys are never removed by time.
    func removeSessions(
        lastUsedBefore: Int64?, createdBefore: Int64?
    ) async throws(StoreError) -> Int
}
