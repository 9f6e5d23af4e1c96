#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic time in nanoseconds, for timing on the hot path: one `clock_gettime`, an
/// integer difference, no `Duration` arithmetic (measured here: two readings cost about
/// 150 ns against 215 ns through `ContinuousClock`, and observing an `Int` 21 ns against
/// 48 ns for a `Duration`).
///
/// ```swift
/// let start = MonotonicTime.nanoseconds
/// work()
/// histogram.observe(MonotonicTime.nanoseconds - start)
/// ```
public enum MonotonicTime {
    @inline(__always)
    public static var nanoseconds: Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec &* 1_000_000_000 &+ now.tv_nsec
    }
}
