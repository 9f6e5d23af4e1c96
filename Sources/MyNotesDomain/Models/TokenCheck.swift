/// An account found by email together with whether a presented token is one of its own,
/// read in the same statement.
///
/// ```swift
/// if let found = try store.account(email: email, presenting: hash), found.holdsToken { … }
/// ```
public struct TokenCheck: Sendable, Hashable {
    public var account: Account
    /// Whether the presented token hash is one of the account's tokens. Whether that
    /// token has expired is the service's to judge, from ``session``.
    public var holdsToken: Bool
    /// The presented token's record when the account holds it, else `nil`.
    public var session: Session?

    public init(account: Account, holdsToken: Bool, session: Session? = nil) {
        self.account = account
        self.holdsToken = holdsToken
        self.session = session
    }
}
