/// ``SignInLimits`` counted in the store, so that failed sign-ins on every server on one
/// database count together: five wrong passwords spread over two servers are five, and
/// sixteen sent at once to two servers let exactly the limit reach the password check
/// (the store reserves under a lock on the keys, as ``SignInThrottle`` does under its own).
///
/// ```swift
/// let throttle = SharedSignInThrottle(limits: SignInLimits(), store: postgres)
/// ```
package struct SharedSignInThrottle: SignInThrottling {
    /// The failures counted for one admitted attempt.
    package struct Attempt: Sendable {
        fileprivate let email: String
        fileprivate let ids: [Int64]
    }

    package let limits: SignInLimits
    package let store: any SharedLimitStore

    package func reserve(email: String, address: String?) async throws(StoreError)
        -> SignInAdmission<Attempt>
    {
        var keys = [FailureLimit(key: Self.accountKey(email), limit: limits.perAccount)]
        if let address {
            keys.append(FailureLimit(key: "address:" + address, limit: limits.perAddress))
        }
        switch try await store.reserveFailure(keys: keys, within: limits.window) {
        case .refused(let wait): return .refused(retryAfter: wait)
        case .reserved(let ids): return .admitted(Attempt(email: email, ids: ids))
        }
    }

    package func release(_ attempt: Attempt) async {
        // Best effort (see the protocol): the caller is already reporting another error.
        try? await store.releaseFailures(attempt.ids)
    }

    package func succeeded(_ attempt: Attempt) async throws(StoreError) {
        try await store.clearFailures(key: Self.accountKey(attempt.email), releasing: attempt.ids)
    }

    /// The same keys as the in-memory throttle's: the email, ASCII-case-insensitively as
    /// the store compares emails, and the address.
    private static func accountKey(_ email: String) -> String {
        "account:" + email.lowercased()
    }
}
