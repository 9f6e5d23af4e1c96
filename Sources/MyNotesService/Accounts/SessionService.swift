import Secrets
import Storage

/// Accounts with passwords and their sessions: sign up, sign in (a new token each
/// time; the others stay valid), sign out (revokes the token used), and finding the
/// account a bearer token belongs to. Tokens are shared with the legacy protocol.
///
/// ```swift
/// let sessions = SessionService(store: store, configuration: ServiceConfiguration())
/// let (account, token) = try sessions.signUp(email: "a@example.com", password: "s3cret pass")
/// let other = try sessions.signIn(email: "a@example.com", password: "s3cret pass", from: nil)
/// ```
public struct SessionService: Sendable {
    public static let minimumPasswordCharacters = 8
    /// PBKDF2 hashes the password once per iteration-block; a cap keeps a megabyte
    /// "password" from costing more than an ordinary one.
    public static let maximumPasswordBytes = 1_024

    let store: any NoteStore
    let signup: SignupPolicy
    let hasher: PasswordHasher
    let throttle: SignInThrottle

    public init(
        store: any NoteStore, configuration: ServiceConfiguration,
        hasher: PasswordHasher = PasswordHasher()
    ) {
        self.store = store
        self.signup = configuration.signup
        self.hasher = hasher
        self.throttle = SignInThrottle(limits: configuration.signInLimits)
    }

    /// Creates an account with a password and returns it with its first token.
    public func signUp(
        email rawEmail: String, password: String
    ) throws(SessionError) -> (Account, String) {
        guard signup == .open else { throw .signupClosed }
        guard let email = Email(validating: rawEmail)?.text else { throw .invalidEmail }
        try Self.checkPassword(password)
        let token = try Self.newToken()
        let passwordHash: String
        do {
            passwordHash = try hasher.hash(password)
        } catch {
            throw .cryptoUnavailable
        }
        do {
            let account = try store.createAccount(
                email: email, tokenHash: token.hash, passwordHash: passwordHash)
            return (account, token.text)
        } catch .duplicateEmail {
            throw .duplicateEmail
        } catch {
            throw .store(error)
        }
    }

    /// Checks the password and issues a new token. Failures are counted per account
    /// and per `address`; past the limits, ``SessionError/throttled(retryAfter:)``.
    public func signIn(
        email rawEmail: String, password: String, from address: String?
    ) throws(SessionError) -> String {
        let email = Email.trimmingSpaces(rawEmail)
        if let wait = throttle.delay(email: email, address: address) {
            throw .throttled(retryAfter: wait)
        }
        let account: Account?
        do {
            account = try store.account(email: email)
        } catch {
            throw .store(error)
        }
        guard let account, let stored = account.passwordHash,
            password.utf8.count <= Self.maximumPasswordBytes,
            hasher.verify(password, against: stored)
        else {
            if account?.passwordHash == nil { hasher.verifyNothing(password) }
            throttle.recordFailure(email: email, address: address)
            throw .wrongCredentials
        }
        throttle.recordSuccess(email: email)
        let token = try Self.newToken()
        do {
            try store.addToken(token.hash, account: account.id)
        } catch {
            throw .store(error)
        }
        return token.text
    }

    /// The account holding `token`.
    public func account(token: String) throws(SessionError) -> Account {
        let found: Account?
        do {
            found = try store.account(tokenHash: SHA256.hash(token))
        } catch {
            throw .store(error)
        }
        guard let found else { throw .invalidToken }
        return found
    }

    /// Revokes `token`.
    public func signOut(token: String) throws(SessionError) {
        let removed: Bool
        do {
            removed = try store.removeToken(SHA256.hash(token))
        } catch {
            throw .store(error)
        }
        guard removed else { throw .invalidToken }
    }

    /// Sets an account's password (the operator's `accounts set-password`).
    public func setPassword(_ password: String, email rawEmail: String) throws(SessionError) {
        let email = Email.trimmingSpaces(rawEmail)
        try Self.checkPassword(password)
        let passwordHash: String
        do {
            passwordHash = try hasher.hash(password)
        } catch {
            throw .cryptoUnavailable
        }
        let updated: Bool
        do {
            updated = try store.setPasswordHash(passwordHash, email: email)
        } catch {
            throw .store(error)
        }
        guard updated else { throw .noSuchAccount(email) }
    }

    static func checkPassword(_ password: String) throws(SessionError) {
        // Characters as JSON Schema's minLength counts them (code points), so the
        // OpenAPI document and the server agree on every password.
        guard password.unicodeScalars.count >= minimumPasswordCharacters else {
            throw .passwordTooShort(minimum: minimumPasswordCharacters)
        }
        guard password.utf8.count <= maximumPasswordBytes else {
            throw .passwordTooLong(maximum: maximumPasswordBytes)
        }
    }

    private static func newToken() throws(SessionError) -> AccessToken {
        do {
            return try AccessToken.generate()
        } catch {
            throw .cryptoUnavailable
        }
    }
}
