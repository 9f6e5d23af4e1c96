import Secrets
import Storage

/// What the MyNotes service enforces, whatever the transport.
///
/// ```swift
/// var service = ServiceConfiguration()
/// service.signup = .closed
/// ```
public struct ServiceConfiguration: Sendable {
    public var authentication: AuthenticationMode
    public var quota: NoteQuota
    /// Whether the REST API lets anyone create an account.
    public var signup: SignupPolicy
    /// How many failed sign-ins are allowed before `429`.
    public var signInLimits: SignInLimits
    /// How new passwords are hashed; ``PasswordHasher/standard`` unless a test asks
    /// for ``PasswordHasher/testing``. Stored hashes keep their own cost.
    public var passwordHasher: PasswordHasher
    /// The clock the sign-in throttle's window runs on; tests pass a manual one and
    /// advance it instead of waiting.
    public var clock: any Clock<Duration>

    public init(
        authentication: AuthenticationMode = .token, quota: NoteQuota = .unlimited,
        signup: SignupPolicy = .open, signInLimits: SignInLimits = SignInLimits(),
        passwordHasher: PasswordHasher = .standard, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.authentication = authentication
        self.quota = quota
        self.signup = signup
        self.signInLimits = signInLimits
        self.passwordHasher = passwordHasher
        self.clock = clock
    }
}
