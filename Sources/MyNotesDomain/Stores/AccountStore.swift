/// Accounts and their access tokens. An account holds any number of tokens (one per
/// sign-in session, and the operator's access key), stored only as their SHA-256.
public protocol AccountStore: Sendable {
    func account(email: String) async throws(StoreError) -> Account?
    /// The account with that email and whether `tokenHash` is one of its tokens, in one
    /// read. `nil` when there is no such account.
    func account(email: String, presenting tokenHash: [UInt8]?) async throws(StoreError)
        -> TokenCheck?
    /// The account that holds the token with this hash, with that token's record
    /// (``TokenCheck/session``); `nil` when no account holds it.
    func account(tokenHash: [UInt8]) async throws(StoreError) -> TokenCheck?
    /// Creates an account holding one token (none when `tokenHash` is `nil`): a
    /// ``TokenKind/session`` when the account has a password (a sign-up), else the
    /// operator's ``TokenKind/accessKey``.
    func createAccount(
        email: String, tokenHash: [UInt8]?, passwordHash: String?
    ) async throws(StoreError) -> Account
    func allAccounts() async throws(StoreError) -> [Account]
    /// Removes the account and all its notes; `false` when there was none.
    func removeAccount(email: String) async throws(StoreError) -> Bool
    /// Revokes every token of the account and gives it this one, an
    /// ``TokenKind/accessKey``; `false` when there is no such account.
    func replaceTokens(email: String, tokenHash: [UInt8]) async throws(StoreError) -> Bool
    /// Gives the account one more token, a ``TokenKind/session`` (a sign-in's), made and
    /// last used at `createdAt` (milliseconds since 1970: the service's clock, which its
    /// session lifetimes are measured on).
    func addToken(_ tokenHash: [UInt8], account: Int64, at createdAt: Int64)
        async throws(StoreError)
    /// Revokes one token; `false` when no account held it.
    func removeToken(_ tokenHash: [UInt8]) async throws(StoreError) -> Bool

    /// Sets the account's encoded password hash and, in the same write, revokes every
    /// token of the account except `keepingToken` (all when `nil`); `false` when there
    /// is no such account.
    func setPasswordHash(
        _ passwordHash: String, account: Int64, keepingToken: [UInt8]?
    ) async throws(StoreError) -> Bool
}

extension AccountStore {
    /// Creates an account holding one token and no password.
    public func createAccount(email: String, tokenHash: [UInt8]) async throws(StoreError) -> Account
    {
        try await createAccount(email: email, tokenHash: tokenHash, passwordHash: nil)
    }
}
