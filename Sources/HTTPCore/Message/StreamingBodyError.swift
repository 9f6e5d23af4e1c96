/// Why a write to a ``StreamingBody`` was not taken.
public enum StreamingBodyError: Error, Equatable, CustomStringConvertible {
    /// The response has ended: the client went away, the server stopped, or the producer
    /// called ``StreamingBody/finish()``. No later write will be taken either.
    case closed
    /// The writing task was cancelled while it waited for room.
    case cancelled

    public var description: String {
        switch self {
        case .closed: "the response has ended"
        case .cancelled: "the write was cancelled"
        }
    }
}
