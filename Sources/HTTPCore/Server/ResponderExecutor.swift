import BoundedExecution
import Glibc

/// Where responders' tasks run: their first part inline, on the event loop thread that
/// received the request, until the responder first waits; after a wait, on the thread
/// that resumed them when its executor allows it (the store's readers do), else on
/// threads of the server's own.
///
/// Inline first: a responder that never waits (a 404, a static file) is answered in the
/// loop at once, without posting to the loop or waking another thread,
/// and one that waits (for the store) has done its parsing and routing by then. Threads
/// of its own after: a task resumed by the store continues there rather than on Swift's
/// cooperative pool, so whatever else blocks that pool in the process (a test, a
/// library) cannot stall the server.
final class ResponderExecutor: TaskExecutor {
    private let threads: BoundedExecutor

    init(threads: Int) {
        self.threads = BoundedExecutor(
            name: "responder", limits: ExecutorLimits(threads: threads, queueLimit: 1))
    }

    func enqueue(_ job: consuming ExecutorJob) {
        if pthread_getspecific(inlineKey) != nil
            || BoundedExecutor.currentThreadContinuesResumedTasks
        {
            job.runSynchronously(on: asUnownedTaskExecutor())
        } else {
            // Jobs of tasks are never refused: admission control comes before (the store's
            // and the hashing executor's queues).
            threads.enqueue(job)
        }
    }

    /// Starts `body` as a task on this executor, running it on the calling thread until
    /// it first suspends (or finishes).
    func start(_ body: @escaping @Sendable () async -> Void) {
        pthread_setspecific(inlineKey, UnsafeRawPointer(bitPattern: 1))
        Task(executorPreference: self, operation: body)
        pthread_setspecific(inlineKey, nil)
    }

    /// Lets the threads finish what they hold, then stops them.
    func close() {
        threads.close()
    }
}

/// Set on a thread while it starts a responder's task, so the task's first job runs there.
private let inlineKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
