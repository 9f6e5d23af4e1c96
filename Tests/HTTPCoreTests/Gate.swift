import Dispatch
import Synchronization

/// An event responders wait for: each arrival is signalled to the test, which opens the
/// gate when it chooses. Waiting suspends the responder's task; it holds no thread.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>(
        (false, []))
    private let arrivals = DispatchSemaphore(value: 0)

    func wait() async {
        await withCheckedContinuation { continuation in
            let opened = state.withLock { state in
                if !state.open { state.waiting.append(continuation) }
                return state.open
            }
            arrivals.signal()
            if opened { continuation.resume() }
        }
    }

    /// Whether a responder arrived at the gate within `limit`.
    func awaitArrival(within limit: Duration = .seconds(5)) -> Bool {
        let nanoseconds = Int(limit / .nanoseconds(1))
        return arrivals.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
