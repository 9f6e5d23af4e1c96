/// Why a sign-up, sign-in or token check failed.
///
/// ```swift
/// do { _ = try sessions.signIn(email: email, password: password, from: address) }
/// catch .throttled(let wait) { print("try again in \(wait)") }
/// ```
public enum SessionError: Error, CustomStringConvertible, Sendable {
    case signupClosed
    case invalidEmail(EmailError)
    case passwordTooShort(minimum: Int)
    case passwordTooLong(maximum: Int)
    case duplicateEmail
    /// Wrong email or password: one case for both, so callers cannot tell them apart.
    case wrongCredentials
    /// Too many failed sign-ins; try again after this long.
    case throttled(retryAfter: Duration)
    /// Too many sign-ups or sign-ins from this client address, or from everyone at
    /// once (``RateLimits``); nothing was done. Retry after this long.
    case rateLimited(retryAfter: Duration)
    /// The token is missing, unknown, revoked or expired.
    case invalidToken
    /// A password change named the wrong current password.
    case wrongCurrentPassword
    /// No session of the account has that ID.
    case noSuchSession
    /// The operator named an account that does not exist.
    case noSuchAccount(String)
    case store(StoreError)
    case cryptoUnavailable
    /// Too many password checks are waiting already; nothing was done. Retry after this long.
    case overloaded(retryAfter: Duration)

    public var description: String {
        switch self {
        case .signupClosed: "sign-up is disabled"
        case .invalidEmail(let reason): "invalid email: \(reason)"
        case .passwordTooShort(let minimum): "the password has fewer than \(minimum) characters"
        case .passwordTooLong(let maximum): "the password is longer than \(maximum) bytes"
        case .duplicateEmail: "an account with that email already exists"
        case .wrongCredentials: "wrong email or password"
        case .throttled(let wait): "too many failed sign-ins; retry after \(wait)"
        case .rateLimited(let wait): "too many sign-ups or sign-ins; retry after \(wait)"
        case .invalidToken: "invalid access token"
        case .wrongCurrentPassword: "the current password is wrong"
        case .noSuchSession: "no such session"
        case .noSuchAccount(let email): "no account with email \(email)"
        case .store(let error): error.description
        case .cryptoUnavailable: "the cryptography library failed"
        case .overloaded(let wait): "too many password checks waiting; retry after \(wait)"
        }
    }
}
