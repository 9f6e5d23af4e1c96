import Foundation
import MyNotesTesting
import ServerLogging
import Testing

/// What the service logs, read back as an operator would: failures with their cause
/// and the request's ID, and never a secret, whatever the request carried.
@Suite struct RequestLogTests {
    static let password = "correct horse battery staple"

    /// A service logging everything, at trace level, into a capture.
    static func server(failing: Set<FailingStore.Step> = []) throws -> (TestServer, LogCapture) {
        let capture = LogCapture()
        let server = try TestServer(
            .init(failing: failing, logger: Logger(sink: capture.sink, level: .trace)))
        return (server, capture)
    }

    @Test(arguments: LogFormat.allCases)
    func noSecretEverReachesTheLog(format: LogFormat) throws {
        let capture = LogCapture()
        let server = try TestServer(
            .init(logger: Logger(sink: capture.sink, format: format, level: .trace)))
        defer { server.shutdown() }
        let anonymous = RESTClient(server)
        let ann = try anonymous.signUp("ann@example.com", password: Self.password)
        let signIn = try anonymous.send(
            "POST", "/api/v1/sessions",
            json: ["email": "ann@example.com", "password": Self.password])
        let second = try #require(signIn.json["token"] as? String)
        _ = try anonymous.send(
            "POST", "/api/v1/sessions",
            json: ["email": "ann@example.com", "password": "wrong guess"])
        _ = try ann.createNote("a note")
        _ = try ann.send("GET", "/api/v1/notes", headers: ["Cookie": "session=cookie-secret"])
        let legacyToken = try server.createAccount(email: "bob@example.com")
        _ = try anonymous.send(
            "GET",
            "/mynotes/webservice.php?email=bob@example.com&action=query&token=\(legacyToken)")
        _ = try anonymous.send(
            "GET",
            "/mynotes/webservice.php?email=bob@example.com&action=add&date=2026-11-30"
                + "&content=x", headers: ["Authorization": "Bearer \(legacyToken)"])
        _ = try anonymous.with(token: second).send("DELETE", "/api/v1/sessions/current")

        let log = capture.text
        for secret in [
            try #require(ann.token), second, legacyToken, Self.password, "wrong guess",
            "cookie-secret",
        ] {
            #expect(!log.contains(secret), "a secret reached the log")
        }
    }

    @Test func aLegacyStoreFailureIsLoggedWithItsCauseAndRequestID() throws {
        let (server, capture) = try Self.server(failing: [.notes])
        defer { server.shutdown() }
        let token = try server.createAccount(email: "bob@example.com")
        let response = try RESTClient(server).send(
            "GET", "/mynotes/webservice.php?email=bob@example.com&action=query&token=\(token)")
        #expect(response.json["ResultCode"] as? Int == -3)
        let id = try #require(response.header("X-Request-ID"))
        let line = try #require(capture.lines.first { $0.contains("request_id=\(id)") })
        #expect(line.contains(" error legacy request failed"))
        #expect(line.contains("action=query"))
        #expect(line.contains("disk I/O error"))
        #expect(!line.contains(token))
    }

    @Test func aRESTStoreFailureIsLoggedWithItsCauseAndRequestID() throws {
        let (server, capture) = try Self.server(failing: [.notes])
        defer { server.shutdown() }
        let token = try server.createAccount(email: "ann@example.com")
        let response = try RESTClient(server, token: token).send(
            "GET", "/api/v1/notes", headers: ["X-Request-ID": "trace-me-42"])
        #expect(response.status == 500)
        #expect(response.header("X-Request-ID") == "trace-me-42")
        #expect(!response.text.contains("disk I/O error"), "the cause is for the log only")
        let line = try #require(capture.lines.first { $0.contains("request_id=trace-me-42") })
        #expect(line.contains(" error request failed"))
        #expect(line.contains("path=/api/v1/notes"))
        #expect(line.contains("status=500"))
        #expect(line.contains("disk I/O error"))
    }

    @Test func aSuccessfulRequestLogsNoError() throws {
        let (server, capture) = try Self.server()
        defer { server.shutdown() }
        let token = try server.createAccount(email: "ann@example.com")
        #expect(try RESTClient(server, token: token).send("GET", "/api/v1/notes").status == 200)
        #expect(!capture.text.contains(" error "))
    }
}
