import BoundedExecution
import Secrets

/// Accounts with passwords and their sessions: sign up, sign in (a new token each
/// time; the others stay valid), sign out (revokes the token used), finding the account
/// a bearer token belongs to (sessions expire: ``SessionLifetime``), changing the
/// password, and listing and revoking sessions. Tokens are shared with the legacy protocol.
///
/// Password hashing (a third of a second of CPU) runs on `hashing`, a bounded executor
/// of its own: never on a thread that serves connections, and when its queue is full a
/// sign-up or sign-in fails at once with ``SessionError/overloaded(retryAfter:)``.
///
/// ```swift
/// let sessions = SessionService(
///     store: store, configuration: ServiceConfiguration(),
///     hashing: BoundedExecutor(name: "hashing", limits: ServiceConfiguration.defaultHashing),
///     keeper: keeper)
/// let (account, token) = try await sessions.signUp(
///     email: "a@example.com", password: "s3cret pass", from: "192.0.2.7")
/// let other = try await sessions.signIn(email: "a@example.com", password: "s3cret pass", from: nil)
/// ```
public struct SessionService: Sendable {
    public static let minimumPasswordCharacters = 8
    /// PBKDF2 hashes the password once per iteration-block; a cap keeps a megabyte
    /// "password" from costing more than an ordinary one.
    public static let maximumPasswordBytes = 1_024

    package let store: any AccountStore & SessionStore
    package let signup: SignupPolicy
    package let hasher: PasswordHasher
    package let throttle: any SignInThrottling
    package let hashing: BoundedExecutor
    package let retryAfter: Duration
    package let signUpLimiter: any RateLimiting
    package let signInLimiter: any RateLimiting
    package let clock: any Clock<Duration>
    package let signUpCost = SignUpCost()
    package let keeper: SessionKeeper

    /// `hashing` is the caller's: it outlives this service and is closed by its owner.
    /// `keeper` is the one session keeper of the services (``DomainServices``).
    package init(
        store: any AccountStore & SessionStore, configuration: ServiceConfiguration,
        hashing: BoundedExecutor, keeper: SessionKeeper,
        sharedLimits: (any SharedLimitStore)? = nil
    ) {
        self.store = store
        self.signup = configuration.signup
        self.hasher = configuration.passwordHasher
        self.hashing = hashing
        self.retryAfter = configuration.retryAfter
        // Counted in the store when servers share it, else in memory.
        if configuration.limitState == .inStore, let shared = sharedLimits {
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
        self.keeper = keeper
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
        let email: String
        do {
            email = try Email(validating: rawEmail).text
        } catch {
            throw .invalidEmail(error)
        }
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
    ///
    /// Every attempt the throttle admits runs exactly one password check of the same
    /// cost, whether the email has an account, the account a password, or the password a
    /// length that could be right: its time tells nothing of which.
    public func signIn(
        email rawEmail: String, password: String, from address: String?
    ) async throws(SessionError) -> String {
        let email: String
        do {
            email = try Email(lookingUp: rawEmail).text
        } catch {
            throw .invalidEmail(error)
        }
        let found = try await throttled(email: email, address: address, by: throttle) {
            () async throws(SessionError) -> Account? in
            let limited: Duration?
            do throws(StoreError) {
                limited = try await signInLimiter.wait(admitting: address)
            } catch {
                throw .store(error)
            }
            if let wait = limited { throw .rateLimited(retryAfter: wait) }
            let account: Account?
            do throws(StoreError) {
                account = try await store.account(email: email)
            } catch {
                throw .store(error)
            }
            let matches = try await checkPassword(password, against: account?.passwordHash)
            return matches ? account : nil
        }
        guard let account = found else { throw .wrongCredentials }
        let token = try Self.newToken()
        do throws(StoreError) {
            try await store.addToken(token.hash, account: account.id, at: keeper.now)
        } catch {
            throw .store(error)
        }
        await keeper.sweepIfDue()
        return token.text
    }

    /// Runs `attempt` as one sign-in attempt the throttle admitted (``SignInThrottling``):
    /// a value (the right password) gives the slot back and clears the account's failures;
    /// `nil` (a wrong one) leaves it counted; an error (refused before the password was
    /// judged) gives it back. Generic so that each throttle keeps its own attempt type.
    private func throttled<Throttle: SignInThrottling, Value>(
        email: String, address: String?, by throttle: Throttle,
        _ attempt: () async throws(SessionError) -> Value?
    ) async throws(SessionError) -> Value? {
        let reserved: Throttle.Attempt
        switch try await Self.store({ () async throws(StoreError) in
            try await throttle.reserve(email: email, address: address)
        }) {
        case .refused(let wait): throw .throttled(retryAfter: wait)
        case .admitted(let admitted): reserved = admitted
        }
        let value: Value?
        do {
            value = try await attempt()
        } catch {
            await throttle.release(reserved)
            throw error
        }
        guard let value else { return nil }
        try await Self.store { () async throws(StoreError) in
            try await throttle.succeeded(reserved)
        }
        return value
    }

    /// Whether `password` is the one `stored` was made from, after one derivation of the
    /// same cost in every case: with no stored hash, one of the configured cost whose
    /// result is thrown away; a password no account can have (over
    /// ``maximumPasswordBytes``) is derived all the same and then refused.
    private func checkPassword(
        _ password: String, against stored: String?
    ) async throws(SessionError) -> Bool {
        let hasher = self.hasher
        let matches = try await onHashingThread {
            guard let stored else {
                hasher.verifyNothing(password)
                return false
            }
            return hasher.verify(password, against: stored)
        }
        return matches && password.utf8.count <= Self.maximumPasswordBytes
    }

    /// The account holding `token`, if the token still works.
    public func account(token: String) async throws(SessionError) -> Account {
        try await authenticate(token).account
    }

    /// The account holding `token` and the token's record; an expired session is
    /// ``SessionError/invalidToken`` (and removed).
    private func authenticate(_ token: String) async throws(SessionError) -> (
        account: Account, session: Session
    ) {
        let found: TokenCheck?
        do {
            found = try await store.account(tokenHash: SHA256.hash(token))
        } catch {
            throw .store(error)
        }
        guard let found, let session = found.session,
            await keeper.use(session, at: keeper.now)
        else { throw .invalidToken }
        return (found.account, session)
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

    /// Changes the password of the account holding `token`, which must name the current
    /// one, and revokes every other token of the account. Wrong current passwords count
    /// as failed sign-ins (a stolen token must not buy unlimited guesses).
    public func changePassword(
        token: String, current: String, new: String, from address: String?
    ) async throws(SessionError) {
        let (account, session) = try await authenticate(token)
        try Self.checkPassword(new)
        let matched = try await throttled(email: account.email, address: address, by: throttle) {
            () async throws(SessionError) -> Bool? in
            try await checkPassword(current, against: account.passwordHash) ? true : nil
        }
        guard matched != nil else { throw .wrongCurrentPassword }
        let passwordHash = try await hash(new)
        do {
            _ = try await store.setPasswordHash(
                passwordHash, account: account.id, keepingToken: session.tokenHash)
        } catch {
            throw .store(error)
        }
    }

    /// The live tokens of the account holding `token`, oldest first.
    public func sessions(token: String) async throws(SessionError) -> [SessionSummary] {
        let (account, current) = try await authenticate(token)
        let all: [Session]
        do {
            all = try await store.sessions(account: account.id)
        } catch {
            throw .store(error)
        }
        let now = keeper.now
        return all.filter { keeper.lifetime.isLive($0, at: now) }.map {
            SessionSummary($0, lifetime: keeper.lifetime, current: current.tokenHash)
        }
    }

    /// Revokes the token with that ``SessionSummary/id`` among the tokens of the account
    /// holding `token` (which may be `token` itself).
    public func revokeSession(id: String, token: String) async throws(SessionError) {
        let (account, _) = try await authenticate(token)
        let all: [Session]
        do {
            all = try await store.sessions(account: account.id)
        } catch {
            throw .store(error)
        }
        guard let target = all.first(where: { SessionSummary.id(of: $0.tokenHash) == id }) else {
            throw .noSuchSession
        }
        let removed: Bool
        do {
            removed = try await store.removeToken(target.tokenHash)
        } catch {
            throw .store(error)
        }
        guard removed else { throw .noSuchSession }
    }

    /// Revokes every token of the account holding `token` but `token`; returns how many.
    public func revokeOtherSessions(token: String) async throws(SessionError) -> Int {
        let (account, current) = try await authenticate(token)
        do {
            return try await store.removeTokens(account: account.id, keeping: current.tokenHash)
        } catch {
            throw .store(error)
        }
    }

    /// Sets an account's password (the operator's `accounts set-password`) and revokes
    /// every token of the account, the access key included: whoever knew the old password
    /// or held a token is signed out. The email is taken as stored, so that an account
    /// made before emails were checked can be repaired.
    public func setPassword(_ password: String, email rawEmail: String) async throws(SessionError) {
        let email = Email.trimmingSpaces(rawEmail)
        try Self.checkPassword(password)
        let account: Account?
        do {
            account = try await store.account(email: email)
        } catch {
            throw .store(error)
        }
        guard let account else { throw .noSuchAccount(email) }
        let passwordHash = try await hash(password)
        let updated: Bool
        do {
            updated = try await store.setPasswordHash(
                passwordHash, account: account.id, keepingToken: nil)
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

    package static func checkPassword(_ password: String) throws(SessionError) {
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
