import Storage

/// ``SignInLimits`` counted in the store, so that failed sign-ins on every server on one
/// database count together: five wrong passwords spread over two servers are five.
///
/// ```swift
/// let throttle = SharedSignInThrottle(limits: SignInLimits(), store: postgres)
/// ```
struct SharedSignInThrottle: SignInThrottling {
    let limits: SignInLimits
    let store: any SharedLimitStore

    func wait(beforeSignIn email: String, from address: String?) async throws(StoreError)
        -> Duration?
    {
        let keys = Self.keys(email: email, address: address, limits)
        let counted = try await store.failures(keys: keys.map(\.key), within: limits.window)
        let waits = keys.compactMap { key, limit -> Duration? in
            guard let failures = counted[key], failures.count >= limit else { return nil }
            return limits.window - failures.oldestAge
        }
        return waits.max()
    }

    func countFailure(email: String, from address: String?) async throws(StoreError) {
        try await store.recordFailure(
            keys: Self.keys(email: email, address: address, limits).map(\.key))
    }

    func countSuccess(email: String) async throws(StoreError) {
        try await store.clearFailures(key: Self.accountKey(email))
    }

    /// The same keys as the in-memory throttle's: the email, ASCII-case-insensitively as
    /// the store compares emails, and the address.
    private static func keys(email: String, address: String?, _ limits: SignInLimits)
        -> [(key: String, limit: Int)]
    {
        var keys = [(accountKey(email), limits.perAccount)]
        if let address { keys.append(("address:" + address, limits.perAddress)) }
        return keys
    }

    private static func accountKey(_ email: String) -> String {
        "account:" + email.lowercased()
    }
}
