import Locking
import Telemetry

/// Requests by route, method and status, and latency per route, for `/metrics`.
/// ``middleware`` records them; each route's counters come with the route from the
/// ``Router`` (``HTTPResponse/route``), so recording takes no lock.
///
/// ```swift
/// let metrics = RequestMetrics(namespace: "notes")  // notes_http_requests_total, …
/// var router = Router()
/// router.add(middleware: metrics.middleware)
/// router.on("/hello", methods: [.get]) { _, _ in .plain(.ok) }
/// metrics.observe(router)
/// registry.register(metrics)
/// ```
public final class RequestMetrics: MetricsCollector {
    /// Requests no route matched (404).
    public let unmatched = RouteStatistics(route: "unmatched")
    private let routes = Lock<[RouteStatistics]>([])
    /// The families' names, made once: a scrape then only writes them.
    private let requestsTotal: String
    private let requestDuration: String

    /// `namespace` starts every family's name (`NAMESPACE_http_requests_total`), so that
    /// an application's series stand apart from other programs' on the same Prometheus;
    /// an empty one leaves the names bare (`http_requests_total`).
    public init(namespace: String) {
        let prefix = namespace.isEmpty ? "" : namespace + "_"
        requestsTotal = prefix + "http_requests_total"
        requestDuration = prefix + "http_request_duration_seconds"
    }

    /// The middleware that records each request; add it first, so it times the others.
    public var middleware: MetricsMiddleware { MetricsMiddleware(metrics: self) }

    /// Shows every route of `router` from now on, with zero counts until requested.
    public func observe(_ router: Router) {
        let statistics = router.routeStatistics
        routes.withLock { $0 = statistics }
    }

    public func collect(into text: inout MetricsText) {
        let all = routes.withLock { $0 } + [unmatched]
        text.family(
            requestsTotal, type: .counter,
            help: "Requests answered, by route pattern, method and status.")
        for route in all {
            for (method, status, count) in route.nonZeroCounts() {
                text.line(
                    requestsTotal,
                    [("route", route.route), ("method", method), ("status", status)], String(count))
            }
        }
        text.family(
            requestDuration, type: .histogram,
            help: "Time from the request's arrival at the router to its answer, by route.")
        for route in all {
            text.histogram(
                requestDuration, [("route", route.route)],
                route.latency.snapshot())
        }
    }
}
