import MyNotesDomain
import Telemetry

// On PostgreSQL: readiness for /readyz (what a balancer's health check asks) and
// the store's queue and pool for /metrics.
extension PostgreSQLNoteStore: StoreMonitoring {
    /// Ready when the database answers and every migration this build knows is recorded
    /// as applied; while PostgreSQL is down, not ready, so a balancer sends elsewhere.
    public func readiness() async -> StoreReadiness {
        do {
            let applied = try await read { connection throws(PostgreSQLError) in
                let rows = try connection.query("SELECT name FROM schema_migrations")
                return Set((0..<rows.count).map { rows.text($0, 0) })
            }
            return StoreReadiness(applied: applied, knows: PostgreSQLMigrations.all.map(\.name))
        } catch {
            return .notReady(reason: "database unreachable: \(error)")
        }
    }

    public var monitoring: (any StoreMonitoring)? { self }

    public func figures() -> StoreFigures {
        StoreFigures(
            engine: .postgreSQL, waitingWrites: executor.waitingJobs,
            pool: (pool.openConnections, pool.capacity),
            writeWait: statistics.writeWait.snapshot(),
            commitBatchSize: statistics.commitBatchSize.snapshot(),
            commitDuration: statistics.commitDuration.snapshot(),
            searchIndexWaiting: searchIndexer.waitingAccounts,
            searchIndexBatchSize: statistics.searchIndexBatchSize.snapshot())
    }
}
