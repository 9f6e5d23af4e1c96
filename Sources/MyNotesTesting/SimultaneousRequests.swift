import Dispatch
import Foundation
import Locking

/// Requests sent at the same moment: each on a thread of its own, all released together
/// once every thread is ready, for races (16 wrong passwords at once).
///
/// ```swift
/// let statuses = try #require(SimultaneousRequests.statuses(16) { index in
///     (try? client.send("POST", "/api/v1/sessions", json: wrong))?.status ?? -1
/// })
/// ```
public enum SimultaneousRequests {
    /// The statuses `send` returned for indexes `0..<count`, in the order they came back;
    /// `nil` when the threads were not all ready within 30 s or not all answered within
    /// `timeout`.
    public static func statuses(
        _ count: Int, timeout: Duration = .seconds(60),
        _ send: @escaping @Sendable (Int) -> Int
    ) -> [Int]? {
        let statuses = Lock<[Int]>([])
        let ready = DispatchGroup()
        let done = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for index in 0..<count {
            ready.enter()
            done.enter()
            Thread {
                ready.leave()
                start.wait()
                let status = send(index)
                statuses.withLock { $0.append(status) }
                done.leave()
            }.start()
        }
        let allReady = ready.wait(timeout: .now() + 30) == .success
        // Released even when not all are ready, so no thread waits forever.
        for _ in 0..<count { start.signal() }
        let seconds = Double(timeout.components.seconds)
        guard allReady, done.wait(timeout: .now() + seconds) == .success else { return nil }
        return statuses.withLock { $0 }
    }
}
