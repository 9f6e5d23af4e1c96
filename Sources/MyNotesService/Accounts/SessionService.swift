import BoundedExecution
import Secrets
import Storage

/// Accounts with passwords and their sessions: sign up, sign in (a new token each
/// time; the others stay valid), sign out (revokes the token used), and finding the
/// account a bearer token belongs to. Tokens are shared with the legacy protocol.
///
/// Password hashing (a third of a second of CPU) runs on `hashing`, a bounded executor
/// of its own: never on a thread that serves connections, and when its queue is full a
/// sign-up or sign-in fails at once with ``SessionError/overloaded(retryAfter:)``.
///
/// ```swift
/// let sessions = SessionService(
///     store: store, configuration: ServiceConfiguration(),
///     hashing: BoundedExecutor(name: "hashing", limits: ServiceConfiguration.defaultHashing))
/// let (account, token) = try await sessions.signUp(
///     email: "a@example.com", password: "s3cret pass", from: "192.0.2.7")
/// let other = try await sessions.signIn(email: "a@example.com", password: "s3cret pass", from: nil)
/// ```
public struct SessionService: Sendable {
    public static let minimumPasswordCharacters = 8
    /// PBKDF2 hashes the password once per iteration-block; a cap keeps a megabyte
    /// "password" from costing more than an ordinary one.
    public static let maximumPasswordBytes = 1_024

    let store: any NoteStore
    let signup: SignupPolicy
    let hasher: PasswordHasher
    let throttle: any SignInThrottling
    let hashing: BoundedExecutor
    let retryAfter: Duration
    let signUpLimiter: any RateLimiting
    let signInLimiter: any RateLimiting
    let clock: any Clock<Duration>
    let signUpCost = SignUpCost()

    /// `hashing` is the caller's: it outlives this service and is closed by its owner.
    public init(
        store: any NoteStore, configuration: ServiceConfiguration, hashing: BoundedExecutor
    ) {
        self.store = store
        self.signup = configuration.signup
        self.hasher = configuration.passwordHasher
        self.hashing = hashing
        self.retryAfter = configuration.retryAfter
        // Issue 11: counted in the store when servers share it, else in memory.
        if configuration.limitState == .inStore, let shared = store as? any SharedLimitStore {
            self.throttle = SharedSignInThrottle(limits: configuration.signInLimits, store: shared)
            self.signUpLimiter = SharedRateLimiter(
                name: "sign-up", limits: configuration.signUpRate, store: shared)
            self.signInLimiter = SharedRateLimiter(
                name: "sign-in", limits: configuration.signInRate, store: shared)
        } else {
            self.throttle = SignInThrottle(
                limits: configuration.signInLimits, clock: configuration.clock)
            self.signUpLimiter = RateLimiter(
                limits: configuration.signUpRate, clock: configuration.clock)
            self.signInLimiter = RateLimiter(
                limits: configuration.signInRate, clock: configuration.clock)
        }
        self.clock = configuration.clock
    }

    /// Creates an account with a password and returns it with its first token.
    ///
    /// The cheap checks come first (email, password length, the rate limits for
    /// `address`, whether the email is taken), so only a sign-up that will succeed pays
    /// for a hash. A taken email is answered after waiting about as long as a free one
    /// takes, on the clock and without holding a thread.
    public func signUp(
        email rawEmail: String, password: String, from address: String?
    ) async throws(SessionError) -> (Account, String) {
        guard signup == .open else { throw .signupClosed }
        guard let email = Email(validating: rawEmail)?.text else { throw .invalidEmail }
        try Self.checkPassword(password)
        if let wait = try await Self.store({ () async throws(StoreError) in
            try await signUpLimiter.wait(admitting: address)
        }) {
            throw .rateLimited(retryAfter: wait)
        }
        let taken: Bool
        do {
            taken = try await store.account(email: email) != nil
        } catch {
            throw .store(error)
        }
        guard !taken else {
            try await waitAsLongAsAFreeSignUp()
            throw .duplicateEmail
        }
        let started = ContinuousClock.now
        let token = try Self.newToken()
        let passwordHash = try await hash(password)
        do {
            let account = try await store.createAccount(
                email: email, tokenHash: token.hash, passwordHash: passwordHash)
            signUpCost.record(ContinuousClock.now - started)
            return (account, token.text)
        } catch .duplicateEmail {
            // Taken between the check and the insert, by a sign-up running alongside.
            throw .duplicateEmail
        } catch {
            throw .store(error)
        }
    }

    /// Sleeps as long as a free sign-up takes (the median of the recent ones). Before the
    /// first one there is none: one hash of a throwaway password is timed instead, once.
    private func waitAsLongAsAFreeSignUp() async throws(SessionError) {
        var cost = signUpCost.median
        if cost == nil {
            let started = ContinuousClock.now
            _ = try await hash("throwaway password for timing")
            cost = ContinuousClock.now - started
        }
        // Cancelled (the client left): the answer is not seen, so it need not wait.
        try? await clock.sleep(for: cost ?? .zero)
    }

    /// Checks the password and issues a new token. Failures are counted per account
    /// and per `address`; past the limits, ``SessionError/throttled(retryAfter:)``.
    /// Every attempt also counts against the sign-in rate (``ServiceConfiguration/signInRate``);
    /// past it, ``SessionError/rateLimited(retryAfter:)``.
    public func signIn(
        email rawEmail: String, password: String, from address: String?
    ) async throws(SessionError) -> String {
        let email = Email.trimmingSpaces(rawEmail)
        if let wait = try await Self.store({ () async throws(StoreError) in
            try await throttle.wait(beforeSignIn: email, from: address)
        }) {
            throw .throttled(retryAfter: wait)
        }
        if let wait = try await Self.store({ () async throws(StoreError) in
            try await signInLimiter.wait(admitting: address)
        }) {
            throw .rateLimited(retryAfter: wait)
        }
        let account: Account?
        do {
            account = try await store.account(email: email)
        } catch {
            throw .store(error)
        }
        let hasher = self.hasher
        let verified: Bool
        if let stored = account?.passwordHash, password.utf8.count <= Self.maximumPasswordBytes {
            verified = try await onHashingThread { hasher.verify(password, against: stored) }
        } else {
            if account?.passwordHash == nil {
                try await onHashingThread { hasher.verifyNothing(password) }
            }
            verified = false
        }
        guard let account, verified else {
            try await Self.store { () async throws(StoreError) in
                try await throttle.countFailure(email: email, from: address)
            }
            throw .wrongCredentials
        }
        try await Self.store { () async throws(StoreError) in
            try await throttle.countSuccess(email: email)
        }
        let token = try Self.newToken()
        do {
            try await store.addToken(token.hash, account: account.id)
        } catch {
            throw .store(error)
        }
        return token.text
    }

    /// The account holding `token`.
    public func account(token: String) async throws(SessionError) -> Account {
        let found: Account?
        do {
            found = try await store.account(tokenHash: SHA256.hash(token))
        } catch {
            throw .store(error)
        }
        guard let found else { throw .invalidToken }
        return found
    }

    /// Revokes `token`.
    public func signOut(token: String) async throws(SessionError) {
        let removed: Bool
        do {
            removed = try await store.removeToken(SHA256.hash(token))
        } catch {
            throw .store(error)
        }
        guard removed else { throw .invalidToken }
    }

    /// Sets an account's password (the operator's `accounts set-password`).
    public func setPassword(_ password: String, email rawEmail: String) async throws(SessionError) {
        let email = Email.trimmingSpaces(rawEmail)
        try Self.checkPassword(password)
        let passwordHash = try await hash(password)
        let updated: Bool
        do {
            updated = try await store.setPasswordHash(passwordHash, email: email)
        } catch {
            throw .store(error)
        }
        guard updated else { throw .noSuchAccount(email) }
    }

    /// The encoded hash of `password`, made on the hashing executor.
    private func hash(_ password: String) async throws(SessionError) -> String {
        let hasher = self.hasher
        signUpCost.countHash()
        let hashed = try await onHashingThread {
            Result { () throws(SecretsError) in try hasher.hash(password) }
        }
        guard case .success(let encoded) = hashed else { throw .cryptoUnavailable }
        return encoded
    }

    /// Runs `body` on the hashing executor; a full queue is ``SessionError/overloaded(retryAfter:)``.
    @discardableResult
    private func onHashingThread<Value: Sendable>(
        _ body: @escaping @Sendable () -> Value
    ) async throws(SessionError) -> Value {
        do {
            return try await hashing.run(body)
        } catch {
            switch error {
            case .overloaded: throw .overloaded(retryAfter: retryAfter)
            case .closed: throw .store(.closed)
            }
        }
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

    /// Runs a call on the store, reporting its failure as the session's.
    private static func store<Value>(
        _ body: () async throws(StoreError) -> Value
    ) async throws(SessionError) -> Value {
        do {
            return try await body()
        } catch {
            throw .store(error)
        }
    }
}
