import Locking

/// Counts failed sign-ins per account and per client address, in memory: a restart
/// forgets them, which costs an attacker a restart per window, not a bypass.
///
/// Checking and counting are one step: ``reserve(email:address:)`` counts the attempt as
/// a failure at once, under the lock that checked the limits, before the password is
/// hashed, and a correct password gives the slot back (``succeeded(_:)``). So however
/// many sign-ins run at once, at most the limit of them reach the password check.
///
/// ```swift
/// let throttle = SignInThrottle(limits: SignInLimits(), clock: ContinuousClock())
/// switch throttle.reserve(email: email, address: ip) {
/// case .refused(let wait): /* 429, Retry-After: wait */
/// case .admitted(let attempt): /* check the password; right: */ throttle.succeeded(attempt)
/// }
/// ```
package final class SignInThrottle: Sendable {
    private struct State {
        /// Times of failures (reserved attempts included), oldest first, as time elapsed
        /// on `clock` since the throttle was made.
        package var failures: [String: [Duration]] = [:]
    }

    /// An attempt counted as a failure until it turns out otherwise.
    package struct Attempt: Sendable {
        fileprivate let keys: [String]
        fileprivate let email: String
        fileprivate let time: Duration
    }

    package typealias Admission = SignInAdmission<Attempt>

    /// Past this many keys, expired ones are swept on the next attempt, so a flood of
    /// made-up emails cannot grow the table without bound.
    private static let sweepThreshold = 10_000

    package let limits: SignInLimits
    private let state = Lock(State())
    private let stopwatch: Stopwatch

    package init(limits: SignInLimits, clock: any Clock<Duration>) {
        self.limits = limits
        stopwatch = Stopwatch(on: clock)
    }

    /// Admits an attempt and counts it as a failure, or refuses it when the account's or
    /// the address's failures in the window have reached their limits.
    package func reserve(email: String, address: String?) -> Admission {
        state.withLock { state in
            let now = stopwatch.elapsed
            if state.failures.count > Self.sweepThreshold {
                state.failures = state.failures.filter { _, times in
                    times.last.map { now - $0 < limits.window } ?? false
                }
            }
            let keys = keys(email: email, address: address)
            var waits: [Duration] = []
            var recent: [[Duration]] = []
            for (key, limit) in keys {
                let times = (state.failures[key] ?? []).filter { now - $0 < limits.window }
                if times.count >= limit, let oldest = times.first {
                    waits.append(limits.window - (now - oldest))
                }
                recent.append(times)
            }
            if let wait = waits.max() { return .refused(retryAfter: wait) }
            for ((key, _), times) in zip(keys, recent) { state.failures[key] = times + [now] }
            return .admitted(Attempt(keys: keys.map(\.0), email: email, time: now))
        }
    }

    /// The attempt was not a failure after all (refused for another reason before its
    /// password was checked): its slots go back.
    package func release(_ attempt: Attempt) {
        state.withLock { state in Self.remove(attempt, from: &state) }
    }

    /// A correct password: the attempt's slots go back, and its account's failures are
    /// cleared; the address keeps its own, so signing in to one's own account does not
    /// buy more guesses at others.
    package func succeeded(_ attempt: Attempt) {
        state.withLock { state in
            Self.remove(attempt, from: &state)
            state.failures.removeValue(forKey: Self.accountKey(attempt.email))
        }
    }

    private static func remove(_ attempt: Attempt, from state: inout State) {
        for key in attempt.keys {
            guard var times = state.failures[key],
                let index = times.lastIndex(of: attempt.time)
            else { continue }
            times.remove(at: index)
            state.failures[key] = times.isEmpty ? nil : times
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
