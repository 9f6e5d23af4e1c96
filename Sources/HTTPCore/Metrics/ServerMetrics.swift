import Telemetry

/// An ``HTTPServer``'s connections, requests in flight and open streams, read at
/// scrape time from the counters the server keeps anyway.
///
/// ```swift
/// registry.register(ServerMetrics(server: server, namespace: "notes"))
/// ```
public struct ServerMetrics: MetricsCollector {
    let server: HTTPServer
    /// What starts every family's name, with its underscore (or nothing).
    private let prefix: String

    /// `namespace` starts every family's name (`NAMESPACE_http_connections_open`), as for
    /// ``RequestMetrics``; an empty one leaves the names bare.
    public init(server: HTTPServer, namespace: String) {
        self.server = server
        prefix = namespace.isEmpty ? "" : namespace + "_"
    }

    public func collect(into text: inout MetricsText) {
        text.family(
            prefix + "http_requests_in_flight", type: .gauge,
            help: "Requests begun (head received) and not yet answered.")
        text.sample(prefix + "http_requests_in_flight", value: server.requestsInFlight)
        text.family(
            prefix + "http_connections_open", type: .gauge, help: "Client connections open.")
        text.sample(prefix + "http_connections_open", value: server.openConnections)
        text.family(
            prefix + "http_connections_refused_total", type: .counter,
            help: "Connections closed at accept: over the connection limit, or while draining.")
        text.sample(prefix + "http_connections_refused_total", value: server.refusedConnections)
        text.family(
            prefix + "http_streams_open", type: .gauge,
            help: "Streamed responses being sent (live note streams among them).")
        text.sample(prefix + "http_streams_open", value: server.openStreams)
    }
}
