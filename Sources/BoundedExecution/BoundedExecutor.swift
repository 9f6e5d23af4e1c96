import Dispatch
import Foundation
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// A fixed number of dedicated threads and a queue with a hard limit, for blocking work
/// (SQLite reads, password hashing) that must not run on the threads serving connections
/// nor on Swift's cooperative pool, and must not pile up without bound.
///
/// ``run(_:)`` suspends the caller until a thread has run the job; when the queue is
/// full it fails at once with ``BoundedExecutorError/overloaded(queueLimit:)``, so the
/// caller can answer "busy, retry later" instead of waiting longer and longer.
///
/// ```swift
/// let hashing = BoundedExecutor(name: "hashing", limits: ExecutorLimits(threads: 1, queueLimit: 8))
/// defer { hashing.close() }
/// let digest = try await hashing.run { expensiveHash(password) }
/// ```
public final class BoundedExecutor: Sendable {
    private struct State {
        /// Waiting jobs, oldest at `head`; slots before it are spent.
        var jobs: [(@Sendable () -> Void)?] = []
        var head = 0
        /// Jobs a thread has taken and not finished.
        var running = 0
        var closed = false

        var waiting: Int { jobs.count - head }

        mutating func pop() -> (@Sendable () -> Void)? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            jobs[head] = nil
            head += 1
            running += 1
            // Compact once the spent prefix dominates, so the array stays near the limit.
            if head >= 64, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    public let name: String
    public let limits: ExecutorLimits
    private let state = Lock(State())
    /// Counts waiting jobs (plus one wake-up per thread on close).
    private let available = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    /// Whether a task that one of this executor's jobs resumes may go on running on the
    /// job's thread, when the task's own executor allows it (the HTTP server's does).
    public enum ResumedTasks: Sendable {
        /// The task goes back to its own executor: the thread is free for the next job.
        case handedOn
        /// The task continues here: one thread hand-off less per job, for work whose
        /// continuation is short (a read whose answer is then serialized).
        case continueHere
    }

    /// Starts `limits.threads` threads named `<name>.<n>`, the name cut to Linux's 15 bytes
    /// (`Thread.named(_:suffix:_:)`). They hold the executor until ``close()``, which its
    /// owner must call. They are `throughput` threads by default (``ThreadScheduling``):
    /// handed work by others, they do not preempt them.
    public init(
        name: String, limits: ExecutorLimits, resumedTasks: ResumedTasks = .handedOn,
        scheduling: ThreadScheduling = .throughput
    ) {
        self.name = name
        self.limits = limits
        for index in 0..<limits.threads {
            let thread = Thread.named(name, suffix: ".\(index)") { [self] in
                scheduling.applyToCurrentThread()
                if resumedTasks == .continueHere {
                    pthread_setspecific(continuesResumedTasksKey, UnsafeRawPointer(bitPattern: 1))
                }
                work()
                stopped.signal()
            }
            thread.start()
        }
    }

    /// Runs `body` on one of the executor's threads and returns its result, or fails at
    /// once when ``ExecutorLimits/queueLimit`` jobs are already waiting with every thread
    /// busy (counted as jobs in flight, so the answer does not depend on how quickly the
    /// threads wake up). A job that
    /// fails returns its failure as a value (a `Result`), so that this error stays the
    /// executor's own.
    public func run<Value: Sendable>(
        _ body: @escaping @Sendable () -> Value
    ) async throws(BoundedExecutorError) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, BoundedExecutorError>, Never>) in
            if let refusal = submit({ continuation.resume(returning: .success(body())) }) {
                continuation.resume(returning: .failure(refusal))
            }
        }
        return try result.get()
    }

    /// Queues `job` to run on one of the threads; the refusal when it cannot be queued.
    /// For callers that resume their own continuation from inside `job`.
    public func submit(_ job: @escaping @Sendable () -> Void) -> BoundedExecutorError? {
        let refusal = state.withLock { state -> BoundedExecutorError? in
            if state.closed { return .closed }
            // Jobs in flight, not jobs not yet taken: a thread that has not woken up yet
            // (common on a loaded machine) must not shrink the queue by its own job.
            if state.waiting + state.running >= limits.threads + limits.queueLimit {
                return .overloaded(queueLimit: limits.queueLimit)
            }
            state.jobs.append(job)
            return nil
        }
        if refusal == nil { available.signal() }
        return refusal
    }

    /// Queues `job` whatever the queue holds: for the jobs of tasks that prefer this
    /// executor, which cannot be refused. A closed executor runs it on the caller's thread.
    func enqueueUnbounded(_ job: @escaping @Sendable () -> Void) {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { available.signal() } else { job() }
    }

    /// Whether the calling thread is one whose executor was made with
    /// ``ResumedTasks/continueHere``.
    public static var currentThreadContinuesResumedTasks: Bool {
        pthread_getspecific(continuesResumedTasksKey) != nil
    }

    /// Jobs waiting for a thread now.
    public var waitingJobs: Int { state.withLock { $0.waiting } }

    /// Refuses new jobs, runs the ones already waiting, and stops the threads. Returns
    /// when they have stopped; safe to call twice.
    public func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        for _ in 0..<limits.threads { available.signal() }
        for _ in 0..<limits.threads { stopped.wait() }
    }

    private func work() {
        while true {
            available.wait()
            let (job, closed) = state.withLock { state in (state.pop(), state.closed) }
            if let job {
                job()
                state.withLock { $0.running -= 1 }
            } else if closed {
                return
            }
        }
    }
}

/// Set on the threads of executors made with ``BoundedExecutor/ResumedTasks/continueHere``.
private let continuesResumedTasksKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
