import MyNotesDomain
import Telemetry

/// The store's figures (``StoreFigures``) as Prometheus metrics: the store reports
/// numbers, and this names them and says what each means on its engine.
struct StoreMetrics: MetricsCollector {
    let store: any StoreMonitoring

    func collect(into text: inout MetricsText) {
        let figures = store.figures()
        switch figures.engine {
        case .sqlite: Self.sqlite(figures, into: &text)
        case .postgreSQL: Self.postgreSQL(figures, into: &text)
        }
        text.family(
            "mynotes_search_index_batch_size", type: .histogram,
            help: "Batches the search index ran off the writes' commits, by the "
                + (figures.engine == .sqlite ? "notes" : "changes") + " each took in.")
        text.histogram("mynotes_search_index_batch_size", [], figures.searchIndexBatchSize)
    }

    private static func sqlite(_ figures: StoreFigures, into text: inout MetricsText) {
        text.family(
            "mynotes_store_queue_depth", type: .gauge,
            help: "Store jobs waiting for a thread: reads for a reader, writes for the next commit."
        )
        text.sample(
            "mynotes_store_queue_depth", ["queue": "read"], value: figures.waitingReads ?? 0)
        text.sample("mynotes_store_queue_depth", ["queue": "write"], value: figures.waitingWrites)
        text.family(
            "mynotes_store_queue_wait_seconds", type: .histogram,
            help: "Time a store job waited before it ran, by queue.")
        if let readWait = figures.readWait {
            text.histogram("mynotes_store_queue_wait_seconds", [("queue", "read")], readWait)
        }
        text.histogram("mynotes_store_queue_wait_seconds", [("queue", "write")], figures.writeWait)
        text.family(
            "mynotes_store_commit_batch_size", type: .histogram,
            help: "Writes committed together in one transaction (group commit).")
        text.histogram("mynotes_store_commit_batch_size", [], figures.commitBatchSize)
        text.family(
            "mynotes_store_commit_duration_seconds", type: .histogram,
            help: "Time of a batch's COMMIT, mostly its fsync (synchronous=FULL).")
        text.histogram("mynotes_store_commit_duration_seconds", [], figures.commitDuration)
        if let commitDelay = figures.commitDelay {
            text.family(
                "mynotes_store_commit_delay_seconds", type: .histogram,
                help: "Time a small batch waited for more writes to join its commit.")
            text.histogram("mynotes_store_commit_delay_seconds", [], commitDelay)
        }
        text.family(
            "mynotes_search_index_waiting_notes", type: .gauge,
            help: "Notes written since the search index last took them in.")
        text.sample("mynotes_search_index_waiting_notes", value: figures.searchIndexWaiting)
    }

    private static func postgreSQL(_ figures: StoreFigures, into text: inout MetricsText) {
        text.family(
            "mynotes_store_queue_depth", type: .gauge,
            help: "Store jobs waiting for a thread: on PostgreSQL, for a pooled connection.")
        text.sample(
            "mynotes_store_queue_depth", ["queue": "postgres"], value: figures.waitingWrites)
        if let pool = figures.pool {
            text.family(
                "mynotes_store_pool_connections", type: .gauge,
                help: "PostgreSQL connections open and the pool's capacity (--db-pool).")
            text.sample("mynotes_store_pool_connections", ["state": "open"], value: pool.open)
            text.sample(
                "mynotes_store_pool_connections", ["state": "capacity"], value: pool.capacity)
        }
        text.family(
            "mynotes_store_queue_wait_seconds", type: .histogram,
            help: "Time a store job waited before it ran: on PostgreSQL, adds for their batch.")
        text.histogram("mynotes_store_queue_wait_seconds", [("queue", "write")], figures.writeWait)
        text.family(
            "mynotes_store_commit_batch_size", type: .histogram,
            help: "Adds to one account committed together in one transaction (group commit).")
        text.histogram("mynotes_store_commit_batch_size", [], figures.commitBatchSize)
        text.family(
            "mynotes_store_commit_duration_seconds", type: .histogram,
            help: "Time of a batch's COMMIT, mostly its flush (synchronous_commit on).")
        text.histogram("mynotes_store_commit_duration_seconds", [], figures.commitDuration)
        text.family(
            "mynotes_search_index_waiting_accounts", type: .gauge,
            help: "Accounts whose changes this server's search indexer has yet to index.")
        text.sample("mynotes_search_index_waiting_accounts", value: figures.searchIndexWaiting)
    }
}
