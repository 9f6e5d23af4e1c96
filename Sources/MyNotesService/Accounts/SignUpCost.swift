import Synchronization

/// What a sign-up for a free email costs past its cheap checks (the password hash,
/// mostly, then the insert), as a moving average, so one for a taken email can take as
/// long without hashing. It also counts the hashes made, which tests check stay zero
/// for taken emails.
///
/// ```swift
/// let cost = SignUpCost()
/// cost.record(.milliseconds(140))
/// cost.average  // 140 ms
/// ```
final class SignUpCost: Sendable {
    private struct State {
        var average: Duration?
        var hashes = 0
    }

    private let state = Mutex(State())

    /// The moving average, `nil` until a sign-up has been recorded.
    var average: Duration? { state.withLock { $0.average } }

    /// How many passwords have been hashed.
    var hashes: Int { state.withLock { $0.hashes } }

    /// Adds one free sign-up's duration; recent ones weigh most, so the average follows
    /// the load (a queue for the hashing threads makes sign-ups slower).
    func record(_ duration: Duration) {
        state.withLock { state in
            state.average = state.average.map { $0 * 0.75 + duration * 0.25 } ?? duration
        }
    }

    func countHash() {
        state.withLock { $0.hashes += 1 }
    }
}
