import Locking

/// What a sign-up for a free email costs past its cheap checks (the password hash,
/// mostly, then the insert), as the median of the recent ones, so one for a taken email
/// can take as long without hashing. A median, not a mean: the first sign-up after
/// start-up (cold caches) or one stalled by the machine would skew a mean for long. It also counts the hashes made, which tests check stay zero
/// for taken emails.
///
/// ```swift
/// let cost = SignUpCost()
/// cost.record(.milliseconds(140))
/// cost.median  // 140 ms
/// ```
package final class SignUpCost: Sendable {
    private struct State {
        /// The latest durations, oldest first, at most ``window``.
        package var recent: [Duration] = []
        package var hashes = 0
    }

    /// How many recent sign-ups the median is taken of; odd, so it is one of them.
    package static let window = 15

    private let state = Lock(State())

    /// The median of the recent sign-ups, `nil` until one has been recorded.
    package var median: Duration? {
        let recent = state.withLock { $0.recent }.sorted()
        return recent.isEmpty ? nil : recent[recent.count / 2]
    }

    /// How many passwords have been hashed.
    package var hashes: Int { state.withLock { $0.hashes } }

    /// Adds one free sign-up's duration, forgetting the oldest past ``window``, so the
    /// median follows the load (a queue for the hashing threads makes sign-ups slower).
    package func record(_ duration: Duration) {
        state.withLock { state in
            state.recent.append(duration)
            if state.recent.count > Self.window { state.recent.removeFirst() }
        }
    }

    package func countHash() {
        state.withLock { $0.hashes += 1 }
    }
}
