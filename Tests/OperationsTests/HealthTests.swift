import Foundation
import HTTPCore
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import SQLiteStore
import Testing

/// `/healthz` and `/readyz`, and the order of a graceful shutdown.
@Suite struct HealthTests {
    func application(_ fixture: OperationsFixture) throws -> MyNotesApplication {
        var server = ServerConfiguration()
        server.port = 0
        server.threads = 1
        let store = try SQLiteNoteStore(path: fixture.databasePath)
        return try MyNotesApplication(server: server, service: ServiceConfiguration(), store: store)
    }

    @Test func aliveAndReadyWhileServing() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let app = try application(fixture)
        defer { app.shutdown() }
        let alive = try httpRequest(port: app.port, "/healthz")
        #expect(alive.status == 200)
        #expect(alive.text == #"{"status":"alive"}"#)
        let ready = try httpRequest(port: app.port, "/readyz")
        #expect(ready.status == 200)
        #expect(ready.text == #"{"status":"ready"}"#)
        #expect(ready.header("Content-Type") == "application/json")
    }

    @Test func drainingIsNotReadyButAlive() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let app = try application(fixture)
        defer { app.shutdown() }
        app.drain.begin()
        let ready = try httpRequest(port: app.port, "/readyz")
        #expect(ready.status == 503)
        #expect(ready.text == #"{"status":"not ready","reason":"draining"}"#)
        #expect(try httpRequest(port: app.port, "/healthz").status == 200)
    }

    @Test func anUnreachableDatabaseIsNotReady() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let app = try application(fixture)
        defer { app.shutdown() }
        app.store.close()
        let ready = try httpRequest(port: app.port, "/readyz")
        #expect(ready.status == 503)
        let object = try JSONSerialization.jsonObject(with: Data(ready.body)) as? [String: String]
        #expect(object?["status"] == "not ready")
        #expect(object?["reason"]?.hasPrefix("database unreachable") == true)
    }

    @Test func onSIGTERMReadyzTurns503BeforeTheServerStopsAccepting() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let server = try ServerProcess(
            database: fixture.location, arguments: ["--drain-delay", "3"])
        #expect(try httpRequest(port: server.port, "/readyz").status == 200)
        kill(server.process.processIdentifier, SIGTERM)
        // Still accepting, now answering 503: a load balancer sees it and stops sending.
        try Poll.until("/readyz answers 503", timeout: .seconds(3)) {
            try httpRequest(port: server.port, "/readyz").status == 503
        }
        #expect(try httpRequest(port: server.port, "/healthz").status == 200)
        #expect(server.process.waitUntilExit(timeout: .seconds(30)))
        #expect(server.process.terminationStatus == 0)
    }
}
