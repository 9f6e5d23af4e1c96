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

    public init(
        authentication: AuthenticationMode = .token, quota: NoteQuota = .unlimited,
        signup: SignupPolicy = .open, signInLimits: SignInLimits = SignInLimits()
    ) {
        self.authentication = authentication
        self.quota = quota
        self.signup = signup
        self.signInLimits = signInLimits
    }
}
