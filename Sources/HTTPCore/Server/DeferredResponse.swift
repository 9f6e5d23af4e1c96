import CMicroHTTPD
import Synchronization

/// The response to a request whose responder runs in a task, while its connection is
/// suspended: libmicrohttpd's thread goes on serving other connections meanwhile.
///
/// The task ``answer(_:)``s. If the access handler has not returned yet (the responder
/// never waited), it queues the answer at once and the connection is never suspended.
/// Otherwise the answer resumes the connection, and libmicrohttpd calls the access
/// handler again, which ``take()``s the response and queues it. Queueing only from
/// inside the access handler is what keeps the connection alive for its next request.
/// The lock makes a resume follow its suspension, never precede it, and makes exactly
/// one answer count: the responder's, or the server's 503 when shutdown cannot wait
/// longer (after which the connection may be gone, so nothing touches it again).
final class DeferredResponse: Sendable {
    private enum Phase {
        /// The responder runs; the access handler has not returned yet.
        case running
        /// The access handler returned; the connection is suspended until the answer.
        case suspended
        /// Answered; the access handler queues it next (now, or once resumed).
        case answered(HTTPResponse)
        /// Taken and queued: the connection is no longer ours to touch.
        case taken
    }

    /// libmicrohttpd makes `MHD_resume_connection` safe from any thread; the pointer is
    /// used only while the connection is suspended, which keeps it alive.
    private struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let phase = Mutex(Phase.running)
    private let connection: Connection

    init(connection: OpaquePointer) {
        self.connection = Connection(pointer: connection)
    }

    /// Called by the access handler once the responder has started: the response when it
    /// is already there (queue it now, no suspension), else `nil` with the connection
    /// suspended until ``answer(_:)``.
    func responseOrSuspend() -> HTTPResponse? {
        phase.withLock { phase in
            switch phase {
            case .running:
                MHD_suspend_connection(connection.pointer)
                phase = .suspended
                return nil
            case .answered(let response):
                phase = .taken
                return response
            case .suspended, .taken:
                return nil
            }
        }
    }

    /// Hands over the response, resuming the connection if it is suspended, unless one
    /// was given already. Returns whether this one counted.
    @discardableResult
    func answer(_ response: HTTPResponse) -> Bool {
        phase.withLock { phase in
            switch phase {
            case .running:
                phase = .answered(response)
                return true
            case .suspended:
                phase = .answered(response)
                MHD_resume_connection(connection.pointer)
                return true
            case .answered, .taken:
                return false
            }
        }
    }

    /// The response, once answered; the access handler calls it when the connection
    /// resumes. `nil` if there is none (libmicrohttpd called without a resume).
    func take() -> HTTPResponse? {
        phase.withLock { phase in
            guard case .answered(let response) = phase else { return nil }
            phase = .taken
            return response
        }
    }
}
