import Storage

/// What sign-in asks of the throttle: may this email, from this address, try now; and
/// what came of the attempt. ``SignInThrottle`` counts in memory; ``SharedSignInThrottle``
/// in the store that every server shares.
///
/// ```swift
/// if let wait = try await throttle.wait(beforeSignIn: email, from: address) { /* 429 */ }
/// try await throttle.countFailure(email: email, from: address)
/// ```
protocol SignInThrottling: Sendable {
    /// `nil` when the sign-in may be tried now, else how long to wait.
    func wait(beforeSignIn email: String, from address: String?) async throws(StoreError)
        -> Duration?
    func countFailure(email: String, from address: String?) async throws(StoreError)
    /// A correct password clears the account's failures (not the address's).
    func countSuccess(email: String) async throws(StoreError)
}
