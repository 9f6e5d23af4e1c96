import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A handle on a call made in the completion-handler style, to cancel it.
///
/// ```swift
/// let request = client.query(on: .main) { result in /* .failure(.cancelled) */ }
/// request.cancel()
/// ```
///
/// Cancelling is safe from any thread, at any time, any number of times; the
/// completion handler still runs exactly once, with ``NotesClientError/cancelled``
/// unless the answer had already arrived.
public final class NotesRequest: @unchecked Sendable {
    // All state is guarded by `lock`; URLSession calls back on its own queue.
    private let lock = NSLock()
    private var cancelled = false
    private var task: URLSessionTask?
    private var pendingRetry:
        (number: Int, onCancel: @Sendable () -> Void, wait: Task<Void, Never>?)?
    private var retries = 0

    init() {}

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        lock.withLock { cancelled }
    }

    /// Cancels the call: the attempt in flight, or the wait before a retry.
    public func cancel() {
        let (task, retry) = lock.withLock {
            cancelled = true
            let current = (self.task, pendingRetry)
            self.task = nil
            pendingRetry = nil
            return current
        }
        task?.cancel()
        retry?.wait?.cancel()
        retry?.onCancel()
    }

    /// Starts `task` unless the call was cancelled; returns whether it started.
    func start(_ task: URLSessionTask) -> Bool {
        let started = lock.withLock {
            guard !cancelled else { return false }
            self.task = task
            return true
        }
        if started { task.resume() }
        return started
    }

    /// Schedules a retry after `delay` on `clock` unless the call was cancelled; returns
    /// whether it was scheduled.
    func scheduleRetry(
        after delay: Duration, on clock: any Clock<Duration>,
        onCancel: @escaping @Sendable () -> Void, _ body: @escaping @Sendable () -> Void
    ) -> Bool {
        let number: Int? = lock.withLock {
            guard !cancelled else { return nil }
            task = nil
            retries += 1
            pendingRetry = (retries, onCancel, nil)
            return retries
        }
        guard let number else { return false }
        let wait = Task {
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            let stillPending = self.lock.withLock {
                guard let pending = self.pendingRetry, pending.number == number else {
                    return false
                }
                self.pendingRetry = nil
                return true
            }
            if stillPending { body() }
        }
        // Kept for `cancel()`, unless the retry was cancelled meanwhile: then it ends here.
        let kept = lock.withLock {
            guard pendingRetry?.number == number else { return false }
            pendingRetry?.wait = wait
            return true
        }
        if !kept { wait.cancel() }
        return true
    }
}
