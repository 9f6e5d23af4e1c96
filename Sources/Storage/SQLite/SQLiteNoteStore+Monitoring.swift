import MyNotesDomain
import Telemetry

// Issue 13: readiness for /readyz and the store's figures for /metrics.
extension SQLiteNoteStore: StoreMonitoring {
    /// Ready when a read-only connection answers and every migration this build knows
    /// is recorded as applied (a database another build moved on is not refused here:
    /// the doctor command reports it).
    public func readiness() async -> StoreReadiness {
        do {
            let applied = try await read { connection throws(SQLiteError) in
                let statement = try connection.statement("SELECT name FROM schema_migrations")
                var names = Set<String>()
                while try statement.step() { names.insert(statement.text(0)) }
                return names
            }
            return StoreReadiness(applied: applied, knows: SQLiteMigrations.all.map(\.name))
        } catch {
            return .notReady(reason: "database unreachable: \(error)")
        }
    }

    public func collect(into text: inout MetricsText) {
        text.family(
            "mynotes_store_queue_depth", type: .gauge,
            help: "Store jobs waiting for a thread: reads for a reader, writes for the next commit."
        )
        text.sample("mynotes_store_queue_depth", ["queue": "read"], value: reading.waitingJobs)
        text.sample("mynotes_store_queue_depth", ["queue": "write"], value: writer.waitingWrites)
        text.family(
            "mynotes_store_queue_wait_seconds", type: .histogram,
            help: "Time a store job waited before it ran, by queue.")
        text.histogram(
            "mynotes_store_queue_wait_seconds", [("queue", "read")], statistics.readWait.snapshot())
        text.histogram(
            "mynotes_store_queue_wait_seconds", [("queue", "write")],
            statistics.writeWait.snapshot())
        text.family(
            "mynotes_store_commit_batch_size", type: .histogram,
            help: "Writes committed together in one transaction (group commit).")
        text.histogram("mynotes_store_commit_batch_size", [], statistics.commitBatchSize.snapshot())
        text.family(
            "mynotes_store_commit_duration_seconds", type: .histogram,
            help: "Time of a batch's COMMIT, mostly its fsync (synchronous=FULL).")
        text.histogram(
            "mynotes_store_commit_duration_seconds", [], statistics.commitDuration.snapshot())
        text.family(
            "mynotes_store_commit_delay_seconds", type: .histogram,
            help: "Time a small batch waited for more writes to join its commit.")
        text.histogram("mynotes_store_commit_delay_seconds", [], statistics.commitDelay.snapshot())
        text.family(
            "mynotes_search_index_waiting_notes", type: .gauge,
            help: "Notes written since the search index last took them in.")
        text.sample("mynotes_search_index_waiting_notes", value: searchIndexer.waitingNotes)
        text.searchIndexBatches(statistics, of: "notes")
    }
}
