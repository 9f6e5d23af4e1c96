import Synchronization

/// What the ``ConnectionWatchdog`` keeps about one open connection: its socket and the
/// instant by which the request under way must have arrived. Created when a loop accepts
/// the connection, registered until it closes.
final class ConnectionRecord: Sendable {
    /// No deadline: a response is under way, which the idle timeout governs.
    static let noDeadline = Int64.max

    let descriptor: Int32
    /// Nanoseconds on the watchdog's clock, or ``noDeadline``. Written by the connection's
    /// loop thread, read by the watchdog.
    let deadline: Atomic<Int64>

    init(descriptor: Int32, deadline: Int64) {
        self.descriptor = descriptor
        self.deadline = Atomic(deadline)
    }
}
