import MyNotesDomain
import Telemetry

// Issue 13 on PostgreSQL: readiness for /readyz (what a balancer's health check asks) and
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

    public func collect(into text: inout MetricsText) {
        text.family(
            "mynotes_store_queue_depth", type: .gauge,
            help: "Store jobs waiting for a thread: on PostgreSQL, for a pooled connection.")
        text.sample("mynotes_store_queue_depth", ["queue": "postgres"], value: executor.waitingJobs)
        text.family(
            "mynotes_store_pool_connections", type: .gauge,
            help: "PostgreSQL connections open and the pool's capacity (--db-pool).")
        text.sample(
            "mynotes_store_pool_connections", ["state": "open"], value: pool.openConnections)
        text.sample("mynotes_store_pool_connections", ["state": "capacity"], value: pool.capacity)
        text.family(
            "mynotes_store_queue_wait_seconds", type: .histogram,
            help: "Time a store job waited before it ran: on PostgreSQL, adds for their batch.")
        text.histogram(
            "mynotes_store_queue_wait_seconds", [("queue", "write")],
            statistics.writeWait.snapshot())
        text.family(
            "mynotes_store_commit_batch_size", type: .histogram,
            help: "Adds to one account committed together in one transaction (group commit).")
        text.histogram("mynotes_store_commit_batch_size", [], statistics.commitBatchSize.snapshot())
        text.family(
            "mynotes_store_commit_duration_seconds", type: .histogram,
            help: "Time of a batch's COMMIT, mostly its flush (synchronous_commit on).")
        text.histogram(
            "mynotes_store_commit_duration_seconds", [], statistics.commitDuration.snapshot())
        text.family(
            "mynotes_search_index_waiting_accounts", type: .gauge,
            help: "Accounts whose changes this server's search indexer has yet to index.")
        text.sample("mynotes_search_index_waiting_accounts", value: searchIndexer.waitingAccounts)
        text.searchIndexBatches(statistics, of: "changes")
    }
}
