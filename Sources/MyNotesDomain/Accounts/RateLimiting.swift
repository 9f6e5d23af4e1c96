/// What sign-up and sign-in ask of a rate limit: whether one more request from an
/// address may go ahead now. ``RateLimiter`` answers from memory; ``SharedRateLimiter``
/// from the store that every server shares.
///
/// ```swift
/// if let wait = try await limiter.wait(admitting: "192.0.2.7") { /* 429, Retry-After */ }
/// ```
package protocol RateLimiting: Sendable {
    /// `nil` when the request may go ahead (it is counted), else how long to wait.
    func wait(admitting address: String?) async throws(StoreError) -> Duration?
}
