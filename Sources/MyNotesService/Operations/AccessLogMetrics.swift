import HTTPCore
import Telemetry

/// The access log's own figures: lines written, and lines dropped because the writer
/// fell behind (a full buffer is dropped from rather than waited on).
struct AccessLogMetrics: MetricsCollector {
    let writer: AccessLogWriter

    func collect(into text: inout MetricsText) {
        text.family(
            "mynotes_access_log_entries_total", type: .counter,
            help: "Access-log entries, by outcome: written, or dropped because the buffer was full."
        )
        text.sample(
            "mynotes_access_log_entries_total", ["outcome": "written"], value: writer.writtenEntries
        )
        text.sample(
            "mynotes_access_log_entries_total", ["outcome": "dropped"], value: writer.droppedEntries
        )
    }
}
