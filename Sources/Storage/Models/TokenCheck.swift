/// An account found by email together with whether a presented token is one of its own,
/// read in the same statement.
///
/// ```swift
/// if let found = try store.account(email: email, presenting: hash), found.holdsToken { … }
/// ```
public struct TokenCheck: Sendable, Hashable {
    public var account: Account
    /// Whether the presented token hash is one of the account's live tokens.
    public var holdsToken: Bool

    public init(account: Account, holdsToken: Bool) {
        self.account = account
        self.holdsToken = holdsToken
    }
}
