/// A clock that stands still until the test moves it: code under test sleeps on it as on
/// any clock, and wakes only when ``advance(by:)`` passes its deadline. Tests of timeouts,
/// back-off and throttling then take no time and cannot be late on a busy machine.
///
/// ```swift
/// let clock = ManualClock()
/// // the code under test: try await clock.sleep(for: .seconds(30))
/// try await clock.waitForSleeper(dueIn: .seconds(30))  // it is waiting, for 30 s exactly
/// clock.advance(by: .seconds(30))                      // and now it wakes
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on the manual clock: the time advanced since it was made.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        public var offset: Duration

        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        public var description: String { "T+\(offset)" }
    }

    private struct Sleeper: Sendable {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State: Sendable {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextSleeper = 0
    }

    private let state = Observed(State())

    public init() {}

    public var now: Instant { state.read { $0.now } }

    public var minimumResolution: Duration { .zero }

    /// Suspends until the clock has been advanced to `deadline`, or the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.update { state in
            defer { state.nextSleeper += 1 }
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Registered under the lock that `onCancel` takes: a cancellation either
                // comes first and is seen here, or finds the sleeper to remove.
                let due: Bool? = state.update { state in
                    if Task.isCancelled { return nil }
                    if deadline <= state.now { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                switch due {
                case nil: continuation.resume(throwing: CancellationError())
                case true?: continuation.resume()
                case false?: break
                }
            }
        } onCancel: {
            let sleeper = state.update { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline it reaches.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock does not go back")
        let woken = state.update { state in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// The deadlines of everyone sleeping on the clock, as durations from now.
    public var pendingWaits: [Duration] {
        state.read { state in
            state.sleepers.values.map { state.now.duration(to: $0.deadline) }.sorted()
        }
    }

    /// Suspends until someone sleeps on the clock until exactly `wait` from now.
    public func waitForSleeper(dueIn wait: Duration, timeout: Duration = .seconds(10))
        async throws
    {
        try await state.wait("a sleeper due in \(wait)", timeout: timeout) { state in
            state.sleepers.values.contains { state.now.duration(to: $0.deadline) == wait }
        }
    }

    /// Suspends until exactly `count` tasks sleep on the clock.
    public func waitForSleepers(count: Int, timeout: Duration = .seconds(10)) async throws {
        try await state.wait("\(count) sleeper(s)", timeout: timeout) { state in
            state.sleepers.count == count
        }
    }
}
