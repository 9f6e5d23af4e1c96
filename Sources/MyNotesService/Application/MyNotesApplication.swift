import BoundedExecution
import HTTPCore
import ServerLogging
import Telemetry
import Storage

/// The MyNotes web service: its routes on an HTTP server, over a store.
///
/// ```swift
/// let store = try StoreLocation(parsing: "sqlite:mynotes.sqlite").open()
/// let app = try MyNotesApplication(
///     server: ServerConfiguration(), service: ServiceConfiguration(), store: store)
/// print("listening on port \(app.port)")
/// app.shutdown()
/// ```
public final class MyNotesApplication: Sendable {
    public let store: any NoteStore
    /// Where passwords are hashed: threads and a queue of their own (``ServiceConfiguration/hashing``).
    public let hashing: BoundedExecutor
    let httpServer: HTTPServer
    // Issue 13 (operations): readiness, metrics, access log.
    /// Set first on shutdown: `/readyz` then answers 503.
    public let drain = DrainState()
    /// What `/metrics` shows.
    public let metrics = MetricsRegistry()
    let operationsConfiguration: OperationsConfiguration
    private let metricsServer: HTTPServer?
    /// Issue 12: the open change streams, ended first at shutdown.
    let changeStreams: ChangeStreamHub

    /// Serves `store` with `service`'s rules; every request's log lines go to `logger`,
    /// tagged with the request's ID.
    public init(
        server configuration: ServerConfiguration, service: ServiceConfiguration,
        store: any NoteStore, logger: Logger = .disabled,
        operations: OperationsConfiguration = OperationsConfiguration()
    ) throws(HTTPServerError) {
        self.store = store
        self.operationsConfiguration = operations
        let hashing = BoundedExecutor(name: "password-hashing", limits: service.hashing)
        self.hashing = hashing
        let changeStreams = ChangeStreamHub(store: store, configuration: service.changeFeed)
        self.changeStreams = changeStreams
        var router = Self.router(
            store: store, configuration: service, hashing: hashing, logger: logger,
            changeStreams: changeStreams)
        let requestMetrics = Self.addOperations(
            to: &router, operations: operations, store: store, drain: drain, metrics: metrics)
        do {
            httpServer = try HTTPServer(configuration: configuration, responder: router)
        } catch {
            hashing.close()
            throw error
        }
        do {
            metricsServer = try Self.metricsServer(
                operations.metrics, store: store, drain: drain, metrics: metrics)
        } catch {
            httpServer.shutdown()
            hashing.close()
            throw error
        }
        Self.register(
            on: metrics, server: httpServer, requests: requestMetrics, store: store,
            accessLog: operations.accessLog)
    }

    /// The port the server listens on.
    public var port: Int { httpServer.port }

    /// The port of the metrics listener, when `/metrics` has one.
    public var metricsPort: Int? { metricsServer?.port }

    /// Turns `/readyz` to 503, waits ``OperationsConfiguration/drainDelay``, then stops
    /// accepting, finishes requests in flight, stops hashing and closes the store.
    public func shutdown() {
        drain.begin()
        let operations = operationsConfiguration
        if operations.drainDelay > .zero { Self.pause(operations.drainDelay) }
        // Change streams end cleanly (their last bytes and the body's end sent), so that
        // clients reconnect, before the server stops and would cut them off.
        changeStreams.close()
        let streamsEnded = ContinuousClock.now + .seconds(1)
        while httpServer.openStreams > 0, ContinuousClock.now < streamsEnded {
            Self.pause(.milliseconds(5))
        }
        httpServer.shutdown()
        metricsServer?.shutdown()
        operations.accessLog?.close()
        hashing.close()
        store.close()
    }

    /// Every route the service answers.
    public static func router(
        store: any NoteStore, configuration: ServiceConfiguration, hashing: BoundedExecutor,
        logger: Logger = .disabled
    ) -> Router {
        router(
            store: store, configuration: configuration, hashing: hashing, logger: logger,
            changeStreams: ChangeStreamHub(store: store, configuration: configuration.changeFeed))
    }

    static func router(
        store: any NoteStore, configuration: ServiceConfiguration, hashing: BoundedExecutor,
        logger: Logger, changeStreams: ChangeStreamHub
    ) -> Router {
        var router = Router()
        router.add(middleware: RequestIDMiddleware(logger: logger))
        let legacy = LegacyHandler(store: store, configuration: configuration)
        for path in LegacyHandler.paths {
            router.on(
                PathPattern(path, matching: .caseInsensitive), methods: LegacyHandler.methods,
                responder: legacy)
        }
        RESTAPI(
            store: store, configuration: configuration, hashing: hashing,
            changeStreams: changeStreams
        )
        .register(on: &router)
        WebAppHandler(catalog: .bundled).register(on: &router)
        return router
    }
}
