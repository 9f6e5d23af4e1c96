import Synchronization

/// What the server keeps about one open connection: its socket and the instant by which
/// the request under way must have arrived. Created when libmicrohttpd accepts the
/// connection and kept in its socket context until it closes.
final class ConnectionRecord: Sendable {
    /// No deadline: a response is under way, which the idle timeout governs.
    static let noDeadline = Int64.max

    let descriptor: Int32
    /// Nanoseconds on the watchdog's clock, or ``noDeadline``. Written by the connection's
    /// worker thread, read by the watchdog.
    let deadline: Atomic<Int64>
    /// Set when the connection is refused while its client may still be sending: it is
    /// then closed by the ``LingeringCloser``.
    let lingers = Atomic<Bool>(false)

    init(descriptor: Int32, deadline: Int64) {
        self.descriptor = descriptor
        self.deadline = Atomic(deadline)
    }
}
