import BoundedExecution
import HTTPCore
import Logging
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
    private let server: HTTPServer

    /// Serves `store` with `service`'s rules; every request's log lines go to `logger`,
    /// tagged with the request's ID.
    public init(
        server configuration: ServerConfiguration, service: ServiceConfiguration,
        store: any NoteStore, logger: Logger = .disabled
    ) throws(HTTPServerError) {
        self.store = store
        let hashing = BoundedExecutor(name: "password-hashing", limits: service.hashing)
        self.hashing = hashing
        do {
            server = try HTTPServer(
                configuration: configuration,
                responder: Self.router(
                    store: store, configuration: service, hashing: hashing, logger: logger))
        } catch {
            hashing.close()
            throw error
        }
    }

    /// The port the server listens on.
    public var port: Int { server.port }

    /// Stops accepting, finishes requests in flight, then stops hashing and closes the store.
    public func shutdown() {
        server.shutdown()
        hashing.close()
        store.close()
    }

    /// Every route the service answers.
    public static func router(
        store: any NoteStore, configuration: ServiceConfiguration, hashing: BoundedExecutor,
        logger: Logger = .disabled
    ) -> Router {
        var router = Router()
        router.add(middleware: RequestIDMiddleware(logger: logger))
        let legacy = LegacyHandler(store: store, configuration: configuration)
        for path in LegacyHandler.paths {
            router.on(
                PathPattern(path, matching: .caseInsensitive), methods: LegacyHandler.methods,
                responder: legacy)
        }
        RESTAPI(store: store, configuration: configuration, hashing: hashing)
            .register(on: &router)
        WebAppHandler(catalog: .bundled).register(on: &router)
        return router
    }
}
