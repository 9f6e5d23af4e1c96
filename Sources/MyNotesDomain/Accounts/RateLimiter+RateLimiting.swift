extension RateLimiter: RateLimiting {
    package func wait(admitting address: String?) async throws(StoreError) -> Duration? {
        admit(address: address)
    }
}
