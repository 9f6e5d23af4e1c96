/// What sign-in asks of the throttle, in main's reserve-then-settle design: an attempt is
/// counted as a failure when it is admitted, before its password is checked, so however
/// many run at once at most the limit reach the check. ``SignInThrottle`` counts in
/// memory; ``SharedSignInThrottle`` in the store that every server shares.
///
/// ```swift
/// switch try await throttle.reserve(email: email, address: address) {
/// case .refused(let wait): /* 429, Retry-After: wait */
/// case .admitted(let attempt): /* right password: */ try await throttle.succeeded(attempt)
/// }
/// ```
package protocol SignInThrottling: Sendable {
    /// One admitted attempt, counted until it is released or succeeds.
    associatedtype Attempt: Sendable

    /// Admits an attempt and counts it as a failure at once, or refuses it when the
    /// account's or the address's failures in the window have reached their limits.
    func reserve(email: String, address: String?) async throws(StoreError)
        -> SignInAdmission<Attempt>
    /// The attempt was refused for another reason before its password was checked: its
    /// slots go back. Best effort: a slot that cannot be given back counts as a failure
    /// until its window passes, which errs on the side of refusing.
    func release(_ attempt: Attempt) async
    /// A correct password: the attempt's slots go back and its account's failures are
    /// cleared (not the address's).
    func succeeded(_ attempt: Attempt) async throws(StoreError)
}

/// A throttle's answer to ``SignInThrottling/reserve(email:address:)``.
package enum SignInAdmission<Attempt: Sendable>: Sendable {
    case admitted(Attempt)
    /// Past a limit: the caller must wait this long.
    case refused(retryAfter: Duration)
}
