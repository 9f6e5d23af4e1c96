import BoundedExecution
import Foundation
import Locking
import MyNotesDomain

/// Watches a migrating connection from a connection of its own, which reads
/// `pg_stat_progress_create_index` for it every `interval` and tells what an index build
/// has come to (``PostgreSQLMigrationProgress/building(step:phase:blocksDone:blocksTotal:)``)
/// in each new phase, at every 5% and at least every ``quietest``.
/// A watch that cannot connect tells nothing: progress is for the log, and the migration
/// goes on without it.
final class PostgreSQLMigrationWatch: Sendable {
    static let defaultInterval: Duration = .seconds(1)
    /// The longest the watch says nothing while the build goes on.
    static let quietest: Duration = .seconds(30)

    private let stopped = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let running = Lock(true)

    /// Starts watching the server process `backend` (the migrating connection's
    /// `pg_backend_pid()`) while it applies `step`.
    init(
        conninfo: String, backend: Int64, step: String, interval: Duration,
        progress: @escaping @Sendable (PostgreSQLMigrationProgress) -> Void
    ) {
        let thread = Thread.named("pg-migration") { [self] in
            defer { finished.signal() }
            guard let connection = try? PostgreSQLConnection(conninfo: conninfo) else { return }
            let seconds =
                Double(interval.components.seconds)
                + Double(interval.components.attoseconds) / 1e18
            var told: (phase: String, percent: Int, at: ContinuousClock.Instant)?
            while stopped.wait(timeout: .now() + seconds) == .timedOut {
                guard
                    let rows = try? connection.query(
                        """
                        SELECT phase, coalesce(blocks_done, 0), coalesce(blocks_total, 0)
                        FROM pg_stat_progress_create_index WHERE pid = $1
                        """, .integer(backend)),
                    rows.count > 0
                else { continue }
                let (phase, done, total) = (
                    rows.text(0, 0), Int(rows.int64(0, 1)), Int(rows.int64(0, 2))
                )
                let percent = total > 0 ? done * 100 / total : 0
                // A line per phase, per 5% and at least every 30 seconds: a build of
                // minutes tells a screenful, not a line every poll.
                if let told, told.phase == phase, percent < told.percent + 5,
                    told.at.duration(to: .now) < Self.quietest
                {
                    continue
                }
                told = (phase, percent, .now)
                guard running.withLock({ $0 }) else { break }
                progress(
                    .building(step: step, phase: phase, blocksDone: done, blocksTotal: total))
            }
        }
        thread.start()
    }

    /// Ends the watch; after it returns, nothing more is told (a poll under way is
    /// waited for, up to a few seconds).
    func stop() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        stopped.signal()
        _ = finished.wait(timeout: .now() + 5)
    }
}
