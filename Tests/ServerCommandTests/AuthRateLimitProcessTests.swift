import Foundation
import MyNotesTesting
import Testing

/// The server binary rate-limits sign-ups by default, and `--auth-rate-limits unlimited`
/// lifts the limit (what scripts/test-schemathesis.sh relies on).
@Suite struct AuthRateLimitProcessTests {
    static func signUp(_ email: String, port: Int) throws -> RawHTTPClient.Response {
        let body = #"{"email":"\#(email)","password":"password 123"}"#
        return try RawHTTPClient(port: port).send(
            "POST /api/v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    }

    @Test(arguments: [
        ([], [201, 201, 201, 201, 201, 429]),
        (["--auth-rate-limits", "standard"], [201, 201, 201, 201, 201, 429]),
        (["--auth-rate-limits", "unlimited"], [201, 201, 201, 201, 201, 201]),
    ])
    func sixSignUpsFromOneAddress(arguments: [String], statuses: [Int]) throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let server = try ServerProcess(database: database.location, arguments: arguments)
        defer { server.stop(signal: SIGTERM) }
        let started = ContinuousClock.now
        let answers = try (0..<6).map { try Self.signUp("u\($0)@example.com", port: server.port) }
        let took = ContinuousClock.now - started
        #expect(answers.map(\.status) == statuses)
        if let refused = answers.last, refused.status == 429 {
            // 10 s for the next token, less what the five hashes took meanwhile (seconds
            // on a loaded machine), rounded up.
            let wait = try #require(refused.header("Retry-After").flatMap { Int($0) })
            let least = 10 - Int(took.components.seconds) - 1
            #expect((least...10).contains(wait), "the sign-ups took \(took)")
        }
    }
}
