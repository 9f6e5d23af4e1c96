import Dispatch
import Locking

/// A task may prefer a ``BoundedExecutor``: its jobs then run on the executor's threads,
/// never on Swift's cooperative pool. What ``BoundedExecutor/wait(for:)`` relies on.
extension BoundedExecutor: TaskExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        // A task's job cannot be refused, so the queue limit does not apply to it.
        enqueueUnbounded { job.runSynchronously(on: executor) }
    }
}

extension BoundedExecutor {
    /// Runs async `body` to completion as a task on this executor's threads while the
    /// calling thread waits: the synchronous face for the few callers that have no task
    /// (a command line's `run()`, a test's setup). Since the task needs no thread of
    /// Swift's cooperative pool, waiting from one cannot starve it. Never call it from
    /// one of this executor's own threads.
    ///
    /// ```swift
    /// let setup = BoundedExecutor(name: "setup", limits: ExecutorLimits(threads: 1, queueLimit: 1))
    /// let accounts = try setup.wait { () async throws(StoreError) in try await store.allAccounts() }
    /// ```
    public func wait<Value: Sendable, Failure: Error>(
        for body: @escaping @Sendable () async throws(Failure) -> Value
    ) throws(Failure) -> Value {
        let done = DispatchSemaphore(value: 0)
        let outcome = Lock<Result<Value, Failure>?>(nil)
        Task(executorPreference: self) {
            let result: Result<Value, Failure>
            do throws(Failure) {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        // Set before `done` was signalled.
        return try outcome.withLock { $0.take()! }.get()
    }
}
