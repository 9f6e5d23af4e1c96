/// Something that writes metric families at scrape time: the cost of a metric is paid
/// by the scrape, not by the requests, whenever the value can be read then (a queue's
/// depth, open connections, the process's memory).
///
/// ```swift
/// struct QueueCollector: MetricsCollector {
///     let queue: WorkQueue
///     func collect(into text: inout MetricsText) {
///         text.family("work_queue_depth", type: .gauge, help: "Jobs waiting.")
///         text.sample("work_queue_depth", value: queue.count)
///     }
/// }
/// ```
public protocol MetricsCollector: Sendable {
    func collect(into text: inout MetricsText)
}
