#if canImport(Glibc)
    import Glibc
#endif

/// How the kernel weighs a thread against the one running on its core when it wakes up.
///
/// A server's helper threads (store readers, the writer, password hashing, responder
/// continuations) are woken by the event loop, and wake it in turn. On Linux a thread
/// that wakes normally preempts the one running: the loop hands a read to a reader and is
/// switched out at once, the reader hands the answer back and is switched out in turn,
/// one pair of context switches per request. `throughput` threads (`SCHED_BATCH`) wait
/// instead until the running thread blocks or has used its time slice, then take the work
/// that gathered meanwhile in one go. They still get their fair share of the core: this is
/// not a lower priority, only no preemption on wake-up.
///
/// Measured with `benchmarks/run.sh 10` (server on one core), its 90/10 query/add mix:
/// 28,500 – 31,700 req/s with every thread `interactive`, 41,300 – 44,800 with the helpers
/// `throughput` and the change stamp read from memory (three runs each; context switches
/// per request 0.45 → 0.03, adds per commit 10 → 27).
///
/// ```swift
/// ThreadScheduling.throughput.applyToCurrentThread()  // first thing on a helper thread
/// ```
public enum ThreadScheduling: Sendable {
    /// The system's default: a thread that wakes may preempt the one running. For threads
    /// that serve connections.
    case interactive
    /// Linux's `SCHED_BATCH`: never preempts on waking up. For threads that are handed
    /// work by the loops. Elsewhere the same as `interactive`.
    case throughput

    /// Applies to the calling thread; a refusal leaves it as it was (a matter of speed,
    /// never of correctness).
    public func applyToCurrentThread() {
        #if os(Linux)
            // sched.h's SCHED_OTHER and SCHED_BATCH; Glibc's module does not export the
            // latter (it is behind _GNU_SOURCE).
            let policy: Int32 = self == .throughput ? 3 : 0
            var parameters = sched_param(sched_priority: 0)
            _ = pthread_setschedparam(pthread_self(), policy, &parameters)
        #endif
    }
}
