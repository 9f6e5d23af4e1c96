/// How big a ``BoundedExecutor`` is: its threads, and how many jobs may wait for one.
///
/// ```swift
/// let limits = ExecutorLimits(threads: 4, queueLimit: 256)
/// let reads = BoundedExecutor(name: "reads", limits: limits)
/// ```
public struct ExecutorLimits: Sendable, Hashable {
    /// Dedicated threads; at most this many jobs run at once.
    public var threads: Int
    /// Jobs that may wait for a thread; one more is refused at once.
    public var queueLimit: Int

    /// Both are raised to at least 1.
    public init(threads: Int, queueLimit: Int) {
        self.threads = max(1, threads)
        self.queueLimit = max(1, queueLimit)
    }
}
