/// Why a ``BoundedExecutor`` did not take a job.
///
/// ```swift
/// do { _ = try await executor.run { work() } }
/// catch .overloaded(let limit) { print("more than \(limit) jobs waiting: answer 503") }
/// catch .closed { print("shutting down") }
/// ```
public enum BoundedExecutorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The queue already holds `queueLimit` jobs; nothing was queued.
    case overloaded(queueLimit: Int)
    /// The executor has been closed.
    case closed

    public var description: String {
        switch self {
        case .overloaded(let limit): "the work queue is full (\(limit) jobs waiting)"
        case .closed: "the executor is closed"
        }
    }
}
