import BoundedExecution

/// Threads of a test's own for its tasks, out of reach of the other suites.
///
/// Swift's cooperative pool has one thread per core (two here). Suites running alongside
/// block those threads for seconds at a time (a child process's exit, a socket read), so a
/// test's task can wait a minute for a thread in a parallel run. A test that times what
/// its own tasks do (a writer waiting for more writes to join its batch), or that blocks
/// for long itself (waiting for processes), runs here: the body and its child tasks prefer
/// these threads, and so do the tasks it makes with `Task(executorPreference:)` (an
/// unstructured `Task {}` would not).
///
/// ```swift
/// try await TestThreads.run { threads in
///     let write = Task(executorPreference: threads) { try await writer.perform { _ in } }
///     try await Poll.until("the writer holds it") { writer.heldWrites == 1 }
/// }
/// ```
public enum TestThreads {
    /// Runs `body` with `count` threads of its own, which end when it returns.
    public static func run<Value: Sendable>(
        count: Int = 2, _ body: (any TaskExecutor) async throws -> Value
    ) async throws -> Value {
        let threads = BoundedExecutor(
            name: "test", limits: ExecutorLimits(threads: count, queueLimit: 1))
        defer { threads.close() }
        return try await withTaskExecutorPreference(threads) { try await body(threads) }
    }
}
