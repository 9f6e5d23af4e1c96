import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Closes connections whose request is late: a head not complete within the head
/// timeout, however slowly its bytes trickle (the idle timeout only measures silence), or
/// a body not complete within the body timeout.
///
/// It reads time from the configured clock, so tests advance time instead of waiting.
/// Closing is `shutdown(2)` on the socket: the connection's event loop then reads end of
/// stream (or a write fails) and closes it on its own thread, with its usual clean-up.
/// The socket cannot have been reused meanwhile, because a connection unregisters its
/// record (under the same lock) before it closes its socket.
final class ConnectionWatchdog: Sendable {
    let headTimeout: Int64
    let bodyTimeout: Int64
    /// Allowed between an answer and the next request's complete head on a kept-alive
    /// connection: the idle time, then the head timeout (we cannot see its first byte).
    let nextHeadTimeout: Int64
    private let connections = Lock<[ObjectIdentifier: ConnectionRecord]>([:])
    private let elapsed: @Sendable () -> Int64
    private let task: Lock<Task<Void, Never>?> = Lock(nil)

    init(configuration: ServerConfiguration) {
        headTimeout = Self.nanoseconds(configuration.requestHeadTimeout)
        bodyTimeout = Self.nanoseconds(configuration.requestBodyTimeout)
        nextHeadTimeout = headTimeout + Int64(configuration.idleTimeoutSeconds) * 1_000_000_000
        elapsed = Self.stopwatch(configuration.clock)
        // Checking four times per shortest timeout keeps a deadline's overshoot small
        // without waking often; a sweep over thousands of connections takes microseconds.
        let tick = Duration.nanoseconds(
            min(max(min(headTimeout, bodyTimeout) / 4, 50_000_000), 1_000_000_000))
        let sweeping = Self.sweeper(configuration.clock, tick: tick, watchdog: self)
        task.withLock { $0 = sweeping }
    }

    /// Nanoseconds on the configured clock since the watchdog began.
    var now: Int64 { elapsed() }

    func register(_ record: ConnectionRecord) {
        connections.withLock { $0[ObjectIdentifier(record)] = record }
    }

    func unregister(_ record: ConnectionRecord) {
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(record)) }
    }

    /// Shuts down the socket of every connection past its deadline.
    func sweep() {
        let now = elapsed()
        connections.withLock { connections in
            for record in connections.values
            where record.deadline.load(ordering: .relaxed) <= now {
                record.deadline.store(ConnectionRecord.noDeadline, ordering: .relaxed)
                shutdown(record.descriptor, Int32(SHUT_RDWR))
            }
        }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Reads the clock; every request does, twice. The usual clock gets code of its own:
    /// reading it through the generic `Clock` and its 128-bit `Duration` arithmetic cost
    /// about 1,700 instructions a request (0.6 % of a legacy query). `ContinuousClock` is
    /// `CLOCK_BOOTTIME` on Linux.
    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Int64 {
        #if os(Linux)
            if clock is ContinuousClock {
                let origin = bootTime()
                return { bootTime() - origin }
            }
        #endif
        let origin = clock.now
        return { nanoseconds(origin.duration(to: clock.now)) }
    }

    #if os(Linux)
        private static func bootTime() -> Int64 {
            var time = timespec()
            clock_gettime(CLOCK_BOOTTIME, &time)
            return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        }
    #endif

    /// The sweeping loop; it holds the watchdog weakly so that it ends with the server.
    private static func sweeper<C: Clock<Duration>>(
        _ clock: C, tick: Duration, watchdog: ConnectionWatchdog
    ) -> Task<Void, Never> {
        Task.detached { [weak watchdog] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: tick) } catch { return }
                guard let watchdog else { return }
                watchdog.sweep()
            }
        }
    }
}
