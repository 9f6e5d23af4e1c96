import Locking

/// The requests whose responders run in tasks, so that shutdown can wait for them and,
/// when it cannot wait longer, answer them itself before the event loops stop.
final class DeferredResponseRegistry: Sendable {
    private struct State {
        var stopping = false
        var running: [ObjectIdentifier: DeferredResponse] = [:]
    }

    private let state = Lock(State())

    /// Registers a response about to be computed; `false` once the server is stopping.
    func begin(_ response: DeferredResponse) -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            state.running[ObjectIdentifier(response)] = response
            return true
        }
    }

    /// The responder's task has finished.
    func end(_ response: DeferredResponse) {
        _ = state.withLock { $0.running.removeValue(forKey: ObjectIdentifier(response)) }
    }

    /// Responders still running.
    var count: Int { state.withLock { $0.running.count } }

    /// Refuses new work and answers every request still waiting with `response`, which
    /// resumes its connection. Their tasks finish on their own; their answers are dropped.
    /// Returns how many were answered so.
    @discardableResult
    func stopAll(answering response: HTTPResponse) -> Int {
        let waiting = state.withLock { state in
            state.stopping = true
            return Array(state.running.values)
        }
        return waiting.filter { $0.answer(response) }.count
    }
}
