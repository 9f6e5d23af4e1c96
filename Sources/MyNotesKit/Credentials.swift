/// Who the client acts for.
///
/// ```swift
/// let credentials = Credentials.token(email: "ann@example.com", token: "s3cr3t")
/// let bookMode = Credentials.emailOnly("ann@example.com")  // servers run with --legacy-email-auth
/// ```
public enum Credentials: Sendable, Hashable {
    /// An account's email and its access token; the token travels as `Authorization: Bearer`.
    case token(email: String, token: String)
    /// The email alone, for servers in book-compatible mode.
    case emailOnly(String)

    /// The account's email.
    public var email: String {
        switch self {
        case .token(let email, _): return email
        case .emailOnly(let email): return email
        }
    }

    /// The access token, if any.
    public var token: String? {
        switch self {
        case .token(_, let token): return token
        case .emailOnly: return nil
        }
    }
}
