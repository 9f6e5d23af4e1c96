import MyNotesDomain
import Telemetry

extension MetricsText {
    /// The search index's batches of its own, one family for both stores; `unit` is what a
    /// batch counts (SQLite indexes notes, PostgreSQL moves past changes).
    mutating func searchIndexBatches(_ statistics: StoreStatistics, of unit: String) {
        family(
            "mynotes_search_index_batch_size", type: .histogram,
            help:
                "Batches the search index ran off the writes' commits, by the \(unit) each took in."
        )
        histogram("mynotes_search_index_batch_size", [], statistics.searchIndexBatchSize.snapshot())
    }
}
