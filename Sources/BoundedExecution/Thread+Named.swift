import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Thread {
    /// A thread (not yet started) that names itself `name` once it runs, so that `top -H`,
    /// `ps -L` and `gdb` show it so: on Linux, Foundation drops a name set before
    /// `start()`, and the thread would show its creator's name (often a thread of Swift's
    /// cooperative pool, `com.apple.root.default-qos`) instead. Linux takes 15 bytes at
    /// most (a longer name is refused whole), so `name` is cut to leave room for `suffix`
    /// (a thread's index among its kind), which stays whole.
    ///
    /// ```swift
    /// let thread = Thread.named("sighup") { waitForSignals() }
    /// thread.start()
    /// ```
    public static func named(
        _ name: String, suffix: String = "", _ body: @escaping @Sendable () -> Void
    ) -> Thread {
        let shown =
            String(decoding: name.utf8.prefix(max(0, 15 - suffix.utf8.count)), as: UTF8.self)
            + suffix
        return Thread {
            nameCurrentThread(shown)
            body()
        }
    }
}

/// Names the calling thread through pthreads. Not `Thread.current.name = …`: Foundation
/// names a thread it started only once `start()` has stored the thread's handle, which
/// the new thread often outruns (1 % of 20,000 threads kept their creator's name), and
/// then drops the name without a word.
private func nameCurrentThread(_ name: String) {
    _ = setThreadName(pthread_self(), name)
}

// Glibc's module map leaves out the GNU extensions (`_GNU_SOURCE`), so the function is
// looked up in the C library by name, once.
private let setThreadName = unsafeBitCast(
    dlsym(dlopen(nil, RTLD_NOW), "pthread_setname_np"),
    to: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32).self)
