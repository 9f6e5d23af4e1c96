import BoundedExecution
import Foundation
import Secrets

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
    /// The clock of the sign-in throttle's window, the sign-up and sign-in rates (which a
    /// sign-up for a taken email also waits on) and the sessions' lifetimes; tests pass a
    /// manual one and advance it instead of waiting.
    public var clock: any Clock<Duration>
    /// Threads that hash passwords, and how many hashes may wait for one.
    public var hashing: ExecutorLimits
    /// How often anyone may sign up, from one address and overall.
    public var signUpRate: RateLimits
    /// How often anyone may sign in, from one address and overall; failures are also
    /// counted per account by ``signInLimits``.
    public var signInRate: RateLimits
    /// What an answer refused for overload (`503`) suggests in `Retry-After`.
    public var retryAfter: Duration
    /// How long sign-in sessions last, idle and in all (on ``clock``).
    public var sessionLifetime: SessionLifetime
    /// Where the sign-in throttle and the rate limits keep their counts; `.inStore` when
    /// several servers share a PostgreSQL database, so that they count together.
    public var limitState: LimitState = .inMemory
    /// The change feed's retention and the live streams' limits.
    public var changeFeed = ChangeFeedConfiguration()

    public init(
        authentication: AuthenticationMode = .token, quota: NoteQuota = .unlimited,
        signup: SignupPolicy = .open, signInLimits: SignInLimits = SignInLimits(),
        passwordHasher: PasswordHasher = .standard, clock: any Clock<Duration> = ContinuousClock(),
        hashing: ExecutorLimits = Self.defaultHashing, retryAfter: Duration = .seconds(1),
        signUpRate: RateLimits = .signUp, signInRate: RateLimits = .signIn,
        sessionLifetime: SessionLifetime = .standard
    ) {
        self.authentication = authentication
        self.quota = quota
        self.signup = signup
        self.signInLimits = signInLimits
        self.passwordHasher = passwordHasher
        self.clock = clock
        self.hashing = hashing
        self.retryAfter = retryAfter
        self.signUpRate = signUpRate
        self.signInRate = signInRate
        self.sessionLifetime = sessionLifetime
    }

    /// Half the cores hash (at least one), so sign-ins never take every core from the
    /// queries; four hashes per thread may wait, about 1.3 s of work at most.
    public static var defaultHashing: ExecutorLimits {
        let threads = max(1, UsableCores.count / 2)
        return ExecutorLimits(threads: threads, queueLimit: 4 * threads)
    }
}
