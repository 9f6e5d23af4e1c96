import Foundation
import HTTPCore
import MyNotesDomain
import Telemetry

// What MyNotesApplication adds for the person who runs it.
extension MyNotesApplication {
    /// Reopens the access log's file (after logrotate renamed it): on SIGHUP.
    public func reopenAccessLog() {
        operationsConfiguration.accessLog?.reopen()
    }

    /// Reads the TLS certificate and key again (after a renewal): on SIGHUP.
    public func reloadTLS() throws(HTTPServerError) {
        try httpServer.reloadTLS()
    }

    /// Adds the metrics and access-log middleware, HSTS over TLS, `/healthz`, `/readyz`,
    /// and `/metrics` when it is served on the main listener.
    static func addOperations(
        to router: inout Router, operations: OperationsConfiguration, store: any NoteStore,
        drain: DrainState, metrics: MetricsRegistry
    ) -> RequestMetrics {
        let requestMetrics = RequestMetrics(namespace: metricsNamespace)
        // Requests are timed and counted only when someone can read the figures.
        if operations.metrics != .off { router.add(middleware: requestMetrics.middleware) }
        if let accessLog = operations.accessLog {
            router.add(middleware: AccessLogMiddleware(writer: accessLog))
        }
        if let maxAge = operations.strictTransportSecurity {
            router.add(middleware: StrictTransportSecurityMiddleware(maxAge: maxAge))
        }
        HealthHandler(store: store, drain: drain).register(on: &router)
        if case .mainListener(let token) = operations.metrics {
            MetricsHandler(registry: metrics, token: token).register(on: &router)
        }
        requestMetrics.observe(router)
        return requestMetrics
    }

    /// The listener of `--metrics-listen`: `/metrics`, `/healthz` and `/readyz` only, on
    /// one worker thread.
    static func metricsServer(
        _ exposure: MetricsExposure, store: any NoteStore, drain: DrainState,
        metrics: MetricsRegistry
    ) throws(HTTPServerError) -> HTTPServer? {
        guard case .listener(let host, let port) = exposure else { return nil }
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.threads = 1
        configuration.responderThreads = 1
        configuration.maxConnections = 64
        configuration.shutdownGracePeriod = .seconds(1)
        var router = Router()
        HealthHandler(store: store, drain: drain).register(on: &router)
        MetricsHandler(registry: metrics, token: nil).register(on: &router)
        return try HTTPServer(configuration: configuration, responder: router)
    }

    static func register(
        on registry: MetricsRegistry, server: HTTPServer, requests: RequestMetrics,
        store: any NoteStore, accessLog: AccessLogWriter?
    ) {
        registry.register(requests)
        registry.register(ServerMetrics(server: server, namespace: metricsNamespace))
        if let monitored = store.monitoring { registry.register(StoreMetrics(store: monitored)) }
        if let accessLog { registry.register(AccessLogMetrics(writer: accessLog)) }
        registry.register(ProcessMetrics())
    }

    /// What starts the name of every metric family the HTTP server exposes
    /// (`mynotes_http_requests_total`), as the store's and the access log's own do.
    static let metricsNamespace = "mynotes"

    /// Blocks the caller: shutdown is synchronous, and this is its first step.
    static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
}
