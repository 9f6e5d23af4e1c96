import Telemetry

/// An ``HTTPServer``'s connections, requests in flight and open streams, read at
/// scrape time from the counters the server keeps anyway.
///
/// ```swift
/// registry.register(ServerMetrics(server: server))
/// ```
public struct ServerMetrics: MetricsCollector {
    let server: HTTPServer

    public init(server: HTTPServer) {
        self.server = server
    }

    public func collect(into text: inout MetricsText) {
        text.family(
            "mynotes_http_requests_in_flight", type: .gauge,
            help: "Requests begun (head received) and not yet answered.")
        text.sample("mynotes_http_requests_in_flight", value: server.requestsInFlight)
        text.family(
            "mynotes_http_connections_open", type: .gauge, help: "Client connections open.")
        text.sample("mynotes_http_connections_open", value: server.openConnections)
        text.family(
            "mynotes_http_connections_refused_total", type: .counter,
            help: "Connections closed at accept: over the connection limit, or while draining.")
        text.sample("mynotes_http_connections_refused_total", value: server.refusedConnections)
        text.family(
            "mynotes_http_streams_open", type: .gauge,
            help: "Streamed responses being sent (live note streams among them).")
        text.sample("mynotes_http_streams_open", value: server.openStreams)
    }
}
