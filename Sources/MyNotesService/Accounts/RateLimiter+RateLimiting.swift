import Storage

extension RateLimiter: RateLimiting {
    func wait(admitting address: String?) async throws(StoreError) -> Duration? {
        admit(address: address)
    }
}
