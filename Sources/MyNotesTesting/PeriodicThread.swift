import Foundation
import Locking

/// Runs `tick` on a thread of its own at once and then every `interval` until ``stop()``:
/// a test's sampler, or the pacing of a load it generates. Between ticks the thread waits
/// for the stop signal rather than sleeping, so ``stop()`` ends it at once and returns
/// when it has ended.
///
/// ```swift
/// let sampler = PeriodicThread(every: .milliseconds(1)) { peak.withLock { $0 = max($0, rss()) } }
/// defer { sampler.stop() }
/// ```
public final class PeriodicThread: Sendable {
    private let stopping = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let running = Lock(true)

    public init(every interval: DispatchTimeInterval, _ tick: @escaping @Sendable () -> Void) {
        let thread = Thread { [stopping, ended] in
            repeat { tick() } while stopping.wait(timeout: .now() + interval) == .timedOut
            ended.signal()
        }
        thread.start()
    }

    /// Ends the thread and waits until it has; later calls return at once.
    public func stop() {
        let wasRunning = running.withLock { running in
            let was = running
            running = false
            return was
        }
        guard wasRunning else { return }
        stopping.signal()
        ended.wait()
    }
}
