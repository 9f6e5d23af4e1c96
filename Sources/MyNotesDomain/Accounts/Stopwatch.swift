/// Time elapsed on a clock since the stopwatch was made. A clock's instants are of a
/// type only that clock knows, so the throttles keep durations from one start instead.
///
/// ```swift
/// let stopwatch = Stopwatch(on: ContinuousClock())
/// stopwatch.elapsed  // a little more than .zero
/// ```
package struct Stopwatch: Sendable {
    private let read: @Sendable () -> Duration

    package init(on clock: any Clock<Duration>) {
        read = Self.reading(clock)
    }

    private static func reading<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    package var elapsed: Duration { read() }
}
