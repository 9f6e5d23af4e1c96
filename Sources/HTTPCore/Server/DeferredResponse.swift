import Locking

/// The answer to a request whose responder runs in a task, handed from wherever the task
/// finishes to the connection's event loop.
///
/// The connection asks for it right after starting the task (``responseOrWait()``): a
/// responder that never waited has answered by then, and its answer is written at once,
/// with no hop through the loop's queue. Otherwise the answer, when it comes, is delivered
/// through `deliver` (which posts it to the loop). The lock makes exactly one answer count:
/// the responder's, or the server's 503 when shutdown cannot wait longer.
final class DeferredResponse: Sendable {
    private enum Phase {
        /// The responder runs; the connection has not asked yet.
        case running
        /// The connection asked before the answer came: it waits for `deliver`.
        case waiting
        /// Answered before the connection asked.
        case answered(HTTPResponse)
        /// Handed over: later answers are dropped.
        case taken
    }

    private let phase = Lock(Phase.running)
    private let deliver: @Sendable (HTTPResponse) -> Void

    /// - Parameter deliver: hands a late answer to the connection's loop; called at most
    ///   once, on the answering thread, without the lock held.
    init(deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        self.deliver = deliver
    }

    /// Called by the connection once the responder has started: the response when it is
    /// already there, else `nil`, and the answer will be delivered.
    func responseOrWait() -> HTTPResponse? {
        phase.withLock { phase in
            switch phase {
            case .running:
                phase = .waiting
                return nil
            case .answered(let response):
                phase = .taken
                return response
            case .waiting, .taken:
                return nil
            }
        }
    }

    /// Hands over the response, unless one was given already. Returns whether this one
    /// counted.
    @discardableResult
    func answer(_ response: HTTPResponse) -> Bool {
        let delivers = phase.withLock { phase -> Bool? in
            switch phase {
            case .running:
                phase = .answered(response)
                return false
            case .waiting:
                phase = .taken
                return true
            case .answered, .taken:
                return nil
            }
        }
        guard let delivers else { return false }
        if delivers { deliver(response) }
        return true
    }
}
