import MyNotesDomain
import Telemetry

// Readiness for /readyz and the store's figures for /metrics.
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

    public var monitoring: (any StoreMonitoring)? { self }

    public func figures() -> StoreFigures {
        StoreFigures(
            engine: .sqlite, waitingReads: reading.waitingJobs, waitingWrites: writer.waitingWrites,
            readWait: statistics.readWait.snapshot(), writeWait: statistics.writeWait.snapshot(),
            commitBatchSize: statistics.commitBatchSize.snapshot(),
            commitDuration: statistics.commitDuration.snapshot(),
            commitDelay: statistics.commitDelay.snapshot(),
            searchIndexWaiting: searchIndexer.waitingNotes,
            searchIndexBatchSize: statistics.searchIndexBatchSize.snapshot())
    }
}
