/// ``RateLimits`` counted in the store, so that every server on one database draws from
/// the same buckets: an address that has used its burst on one server finds it used on
/// all of them.
///
/// ```swift
/// let limiter = SharedRateLimiter(name: "sign-in", limits: .signIn, store: postgres)
/// if let wait = try await limiter.wait(admitting: "192.0.2.7") { /* 429 */ }
/// ```
package struct SharedRateLimiter: RateLimiting {
    /// Sets these buckets apart from other limits' (`sign-up`, `sign-in`).
    package let name: String
    package let limits: RateLimits
    package let store: any SharedLimitStore

    package func wait(admitting address: String?) async throws(StoreError) -> Duration? {
        var buckets: [TokenBucket] = []
        if let rate = limits.overall {
            buckets.append(
                TokenBucket(key: "\(name) *", burst: rate.burst, interval: rate.interval))
        }
        if let address, let rate = limits.perAddress {
            buckets.append(
                TokenBucket(
                    key: "\(name) \(RateLimiter.key(address))", burst: rate.burst,
                    interval: rate.interval))
        }
        return try await store.take(from: buckets)
    }
}
