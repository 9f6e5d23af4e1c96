import Synchronization

/// Counts failed sign-ins per account and per client address, in memory: a restart
/// forgets them, which costs an attacker a restart per window, not a bypass.
///
/// ```swift
/// let throttle = SignInThrottle(limits: SignInLimits(), clock: ContinuousClock())
/// if let wait = throttle.delay(email: email, address: ip) { /* 429, Retry-After: wait */ }
/// throttle.recordFailure(email: email, address: ip)
/// ```
final class SignInThrottle: Sendable {
    private struct State {
        /// Times of failures, as time elapsed on `clock` since the throttle was made.
        var failures: [String: [Duration]] = [:]
    }

    /// Past this many keys, expired ones are swept on the next failure, so a flood of
    /// made-up emails cannot grow the table without bound.
    private static let sweepThreshold = 10_000

    let limits: SignInLimits
    private let state = Mutex(State())
    private let stopwatch: Stopwatch

    init(limits: SignInLimits, clock: any Clock<Duration>) {
        self.limits = limits
        stopwatch = Stopwatch(on: clock)
    }

    /// How long the caller must wait before trying again, or `nil` when it may try now.
    func delay(email: String, address: String?) -> Duration? {
        let now = stopwatch.elapsed
        return state.withLock { state in
            var waits: [Duration] = []
            for (key, limit) in keys(email: email, address: address) {
                let recent = (state.failures[key] ?? []).filter { now - $0 < limits.window }
                if recent.count >= limit, let oldest = recent.first {
                    waits.append(limits.window - (now - oldest))
                }
            }
            return waits.max()
        }
    }

    func recordFailure(email: String, address: String?) {
        let now = stopwatch.elapsed
        state.withLock { state in
            if state.failures.count > Self.sweepThreshold {
                state.failures = state.failures.filter { _, times in
                    times.last.map { now - $0 < limits.window } ?? false
                }
            }
            for (key, limit) in keys(email: email, address: address) {
                var times = (state.failures[key] ?? []).filter { now - $0 < limits.window }
                times.append(now)
                state.failures[key] = Array(times.suffix(limit))
            }
        }
    }

    /// A correct password clears its account's failures; the address keeps its own, so
    /// signing in to one's own account does not buy more guesses at others.
    func recordSuccess(email: String) {
        _ = state.withLock { state in
            state.failures.removeValue(forKey: Self.accountKey(email))
        }
    }

    private func keys(email: String, address: String?) -> [(String, Int)] {
        var keys = [(Self.accountKey(email), limits.perAccount)]
        if let address { keys.append(("address:" + address, limits.perAddress)) }
        return keys
    }

    /// Emails compare ASCII-case-insensitively, as the store's do.
    private static func accountKey(_ email: String) -> String {
        "account:" + email.lowercased()
    }
}
