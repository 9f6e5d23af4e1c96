import BoundedExecution
import HTTPCore
import MyNotesDomain
import ServerLogging
import Telemetry

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
    /// The store the services act on (``DomainServices/store``).
    public var store: any NoteStore { services.store }
    /// The domain's services, built once here for every interface.
    public let services: DomainServices
    /// Where passwords are hashed: threads and a queue of their own (``ServiceConfiguration/hashing``).
    public var hashing: BoundedExecutor { services.hashing }
    let httpServer: HTTPServer
    /// Set first on shutdown: `/readyz` then answers 503.
    public let drain = DrainState()
    /// What `/metrics` shows.
    public let metrics = MetricsRegistry()
    let operationsConfiguration: OperationsConfiguration
    private let metricsServer: HTTPServer?
    /// The open change streams, ended first at shutdown.
    let changeStreams: ChangeStreamHub

    /// Serves `store` with `service`'s rules; every request's log lines go to `logger`,
    /// tagged with the request's ID.
    public init(
        server configuration: ServerConfiguration, service: ServiceConfiguration,
        store: any NoteStore, logger: Logger = .disabled,
        operations: OperationsConfiguration = OperationsConfiguration()
    ) throws(HTTPServerError) {
        self.operationsConfiguration = operations
        let services = DomainServices(store: store, configuration: service)
        self.services = services
        let changeStreams = ChangeStreamHub(
            feed: services.changeFeed, configuration: service.changeFeed)
        self.changeStreams = changeStreams
        var router = Self.router(services: services, changeStreams: changeStreams, logger: logger)
        let requestMetrics = Self.addOperations(
            to: &router, operations: operations, store: store, drain: drain, metrics: metrics)
        do {
            httpServer = try HTTPServer(configuration: configuration, responder: router)
        } catch {
            changeStreams.close()
            services.close()
            throw error
        }
        do {
            metricsServer = try Self.metricsServer(
                operations.metrics, store: store, drain: drain, metrics: metrics)
        } catch {
            httpServer.shutdown()
            changeStreams.close()
            services.close()
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
        services.close()
        store.close()
    }

    /// Every route the service answers, over `services`. `changeStreams` holds the open
    /// change streams; its owner ends them (``ChangeStreamHub/close()``) before the server
    /// stops.
    package static func router(
        services: DomainServices, changeStreams: ChangeStreamHub, logger: Logger = .disabled
    ) -> Router {
        var router = Router()
        router.add(middleware: RequestIDMiddleware(logger: logger))
        let legacy = LegacyHandler(services: services)
        for path in LegacyHandler.paths {
            router.on(
                PathPattern(path, matching: .caseInsensitive), methods: LegacyHandler.methods,
                responder: legacy)
        }
        RESTAPI(services: services, changeStreams: changeStreams).register(on: &router)
        WebAppHandler(catalog: .bundled).register(on: &router)
        return router
    }
}
