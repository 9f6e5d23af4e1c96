/// How a legacy request proves which account it acts for.
public enum AuthenticationMode: Sendable, Hashable {
    /// The account's secret token must come with every request (the default).
    case token
    /// The email alone identifies the account, as the original service did
    /// (`--legacy-email-auth`). Anyone who knows an email can read its notes.
    case legacyEmail
}
