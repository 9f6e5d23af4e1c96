import BoundedExecution
import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Secrets
import Testing

/// When the failures were checked and counted in two steps with the hash between
/// them, 16 wrong passwords sent at once were 13 × 401 and 3 × 429 under a limit of 5.
/// Replayed over 16 TCP connections released together: exactly the limit reach the
/// password check (401), every other is 429 at once.
@Suite struct SignInThrottleRaceTests {
    @Test func sixteenParallelWrongPasswordsLetExactlyTheLimitThrough() throws {
        let limit = 5
        let server = try TestServer(
            .init(
                threads: 4, signInLimits: SignInLimits(perAccount: limit, perAddress: 100),
                hashing: ExecutorLimits(threads: 1, queueLimit: 32),
                passwordHasher: PasswordHasher(iterations: 20_000)))
        defer { server.shutdown() }
        try server.createAccount(email: "ann@example.com", password: "right password")
        let client = RESTClient(server, over: .socket)
        _ = server.port
        let answered = try #require(
            SimultaneousRequests.statuses(16) { _ in
                (try? client.send(
                    "POST", "/api/v1/sessions",
                    json: ["email": "ann@example.com", "password": "wrong password"]))?
                    .status ?? -1
            }, "every request answered")
        #expect(answered.filter { $0 == 401 }.count == limit, "\(answered.sorted())")
        #expect(answered.filter { $0 == 429 }.count == 16 - limit, "\(answered.sorted())")
        // The right password is refused too now: the account is throttled.
        let right = try client.send(
            "POST", "/api/v1/sessions",
            json: ["email": "ann@example.com", "password": "right password"])
        #expect(right.status == 429)
    }

    /// A correct password gives its slot back: sign-ins that succeed never fill the window.
    @Test func successfulSignInsDoNotCountAgainstTheLimit() throws {
        let server = try TestServer(.init(signInLimits: SignInLimits(perAccount: 2, perAddress: 3)))
        defer { server.shutdown() }
        try server.createAccount(email: "ann@example.com", password: "right password")
        let client = RESTClient(server)
        for _ in 0..<6 {
            let response = try client.send(
                "POST", "/api/v1/sessions",
                json: ["email": "ann@example.com", "password": "right password"])
            #expect(response.status == 201)
        }
    }
}
