import Locking

/// The collectors one `/metrics` page shows, in the order registered. Its lock is taken
/// only by registration and by a scrape, never by a request.
///
/// ```swift
/// let registry = MetricsRegistry()
/// registry.register(ProcessMetrics())
/// let page = registry.exposition()  // "# HELP process_cpu_seconds_total …"
/// ```
public final class MetricsRegistry: Sendable {
    private let collectors = Lock<[any MetricsCollector]>([])

    public init() {}

    public func register(_ collector: any MetricsCollector) {
        collectors.withLock { $0.append(collector) }
    }

    /// The Prometheus text exposition (version 0.0.4) of every collector.
    public func exposition() -> String {
        var text = MetricsText()
        for collector in collectors.withLock({ $0 }) { collector.collect(into: &text) }
        return text.text
    }

    /// The content type of ``exposition()``.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"
}
