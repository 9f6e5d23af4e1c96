#if MYNOTES_THREAD_SANITIZER
    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
#else
    import Synchronization
#endif

/// A value that threads take turns with: the project's lock, used everywhere in place of
/// the standard library's `Mutex`, with the same API.
///
/// Why not `Mutex` itself: on Linux, `Synchronization.Mutex` is a bare futex that
/// ThreadSanitizer cannot see, so under `swift test --sanitize=thread` every access it
/// guards was reported as a race. Built with `-Xswiftc -DMYNOTES_THREAD_SANITIZER` (what
/// `scripts/test.sh` does for its ThreadSanitizer run), `Lock` is a `pthread_mutex_t`,
/// which ThreadSanitizer intercepts; otherwise it is a `Mutex` and costs nothing more
/// (a pthread mutex took 26–38 ns a lock and unlock against `Mutex`'s 11–13 ns, measured).
///
/// ```swift
/// let hits = Lock(0)
/// DispatchQueue.concurrentPerform(iterations: 4) { _ in hits.withLock { $0 += 1 } }
/// hits.withLock { $0 }  // 4
/// ```
#if MYNOTES_THREAD_SANITIZER
    public final class Lock<Value: ~Copyable>: @unchecked Sendable {
        // @unchecked: `value` is reached only between `pthread_mutex_lock` and
        // `pthread_mutex_unlock` of `mutex`.
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private var value: Value

        /// A lock guarding `initialValue`.
        public init(_ initialValue: consuming sending Value) {
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(mutex, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
            value = initialValue
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
            mutex.deallocate()
        }

        /// Runs `body` with the value, holding the lock for as long as it runs.
        public func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value)
        }
    }
#else
    public struct Lock<Value: ~Copyable>: ~Copyable, Sendable {
        @usableFromInline let mutex: Mutex<Value>

        /// A lock guarding `initialValue`.
        @inlinable
        public init(_ initialValue: consuming sending Value) {
            mutex = Mutex(initialValue)
        }

        /// Runs `body` with the value, holding the lock for as long as it runs.
        ///
        /// Keep `body` short and never wait inside it (no I/O): every other thread that
        /// wants the value waits for it.
        @inlinable
        public borrowing func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            try mutex.withLock(body)
        }
    }
#endif
