import Locking

/// The streamed bodies being sent, so that shutdown can end them (their producers are told)
/// before the event loops stop.
final class StreamRegistry: Sendable {
    private let state = Lock<(stopping: Bool, bodies: [ObjectIdentifier: StreamingBody])>(
        (false, [:]))

    /// Registers a body; `false` once the server is stopping.
    func begin(_ body: StreamingBody) -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            state.bodies[ObjectIdentifier(body)] = body
            return true
        }
    }

    /// Bodies being streamed now.
    var count: Int { state.withLock { $0.bodies.count } }

    func end(_ body: StreamingBody) {
        _ = state.withLock { $0.bodies.removeValue(forKey: ObjectIdentifier(body)) }
    }

    /// Ends every body still streaming, which resumes its connection if it waits, and
    /// refuses new ones.
    func stopAll() {
        let bodies = state.withLock { state in
            state.stopping = true
            return Array(state.bodies.values)
        }
        for body in bodies { body.end(.abandoned) }
    }
}
