import Foundation
import HTTPCore
import MyNotesDomain
import MyNotesTesting
import Testing

@testable import MyNotesService

/// The rate limits' rules: sign-ups and sign-ins are rate-limited per client
/// address and overall, on the service's clock (a manual one here), with `429`,
/// `Retry-After` and a stable problem code. Requests go to the router in this process,
/// each from the client address the test names.
@Suite("Sign-up and sign-in rate limits")
struct RateLimitTests {
    struct Answer {
        let response: HTTPResponse
        var status: Int { Int(response.status.rawValue) }
        var retryAfter: String? { response.headers["Retry-After"] }
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        }
    }

    static func post(
        _ path: String, _ fields: [String: String], from address: String, to server: TestServer
    ) async throws -> Answer {
        let body = try JSONSerialization.data(withJSONObject: fields)
        let request = HTTPRequest(
            method: .post, path: path, headers: ["Content-Type": "application/json"],
            body: Array(body), clientAddress: address)
        return Answer(response: await server.router.respond(to: request, context: RequestContext()))
    }

    static func signUp(_ email: String, from address: String, to server: TestServer) async throws
        -> Answer
    {
        try await post(
            "/api/v1/accounts", ["email": email, "password": "password 123"], from: address,
            to: server)
    }

    static func every(_ seconds: Int, burst: Int) -> RateLimits.Rate {
        RateLimits.Rate(burst: burst, interval: .seconds(seconds))
    }

    @Test func theSignUpAfterABurstFromOneAddressIs429UntilTheClockMoves() async throws {
        let clock = ManualClock()
        let server = try TestServer(
            .init(
                clock: clock,
                signUpRate: RateLimits(perAddress: Self.every(10, burst: 3), overall: nil)))
        defer { server.shutdown() }
        // Given three sign-ups from one address
        for index in 0..<3 {
            let answer = try await Self.signUp(
                "a\(index)@example.com", from: "192.0.2.1", to: server)
            #expect(answer.status == 201)
        }
        // Then the fourth is 429, saying when to retry, and makes no account
        let refused = try await Self.signUp("a3@example.com", from: "192.0.2.1", to: server)
        #expect(refused.status == 429)
        #expect(refused.retryAfter == "10")
        #expect(
            refused.response.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
        #expect(refused.json["code"] as? Int == 429)
        #expect((refused.json["detail"] as? String)?.contains("sign-ups or sign-ins") == true)
        #expect(try await server.store.account(email: "a3@example.com") == nil)
        // And another address is not affected
        #expect(try await Self.signUp("b@example.com", from: "192.0.2.2", to: server).status == 201)
        // When almost one interval has passed, still 429, with the rest to wait
        clock.advance(by: .seconds(9))
        let early = try await Self.signUp("a3@example.com", from: "192.0.2.1", to: server)
        #expect(early.status == 429)
        #expect(early.retryAfter == "1")
        // When the interval has passed, one more is let through, and one only
        clock.advance(by: .seconds(1))
        #expect(
            try await Self.signUp("a3@example.com", from: "192.0.2.1", to: server).status == 201)
        #expect(
            try await Self.signUp("a4@example.com", from: "192.0.2.1", to: server).status == 429)
    }

    @Test func invalidSignUpsAreRefusedBeforeTheyCount() async throws {
        let server = try TestServer(
            .init(
                clock: ManualClock(),
                signUpRate: RateLimits(perAddress: Self.every(10, burst: 1), overall: nil)))
        defer { server.shutdown() }
        for _ in 0..<3 {
            let answer = try await Self.post(
                "/api/v1/accounts", ["email": "not an email", "password": "password 123"],
                from: "192.0.2.1", to: server)
            #expect(answer.status == 422)
        }
        #expect(try await Self.signUp("a@example.com", from: "192.0.2.1", to: server).status == 201)
    }

    @Test func theOverallLimitHoldsWhateverTheAddress() async throws {
        let clock = ManualClock()
        let server = try TestServer(
            .init(
                clock: clock,
                signUpRate: RateLimits(
                    perAddress: Self.every(10, burst: 5), overall: Self.every(1, burst: 2))))
        defer { server.shutdown() }
        // Given two sign-ups from two addresses
        #expect(try await Self.signUp("a@example.com", from: "192.0.2.1", to: server).status == 201)
        #expect(try await Self.signUp("b@example.com", from: "192.0.2.2", to: server).status == 201)
        // Then a third, from a third address, is 429 for a second
        let refused = try await Self.signUp("c@example.com", from: "192.0.2.3", to: server)
        #expect(refused.status == 429)
        #expect(refused.retryAfter == "1")
        // And a second later it is let through
        clock.advance(by: .seconds(1))
        #expect(try await Self.signUp("c@example.com", from: "192.0.2.3", to: server).status == 201)
    }

    @Test func signInsFromOneAddressAreLimitedApartFromFailures() async throws {
        let clock = ManualClock()
        let server = try TestServer(
            .init(
                clock: clock,
                signInRate: RateLimits(perAddress: Self.every(2, burst: 2), overall: nil)))
        defer { server.shutdown() }
        let credentials = ["email": "ann@example.com", "password": "password 123"]
        #expect(
            try await Self.post("/api/v1/accounts", credentials, from: "192.0.2.9", to: server)
                .status == 201)
        // Given two correct sign-ins from one address
        for _ in 0..<2 {
            let answer = try await Self.post(
                "/api/v1/sessions", credentials, from: "192.0.2.1", to: server)
            #expect(answer.status == 201)
        }
        // Then a third is 429 though the password is right: the rate, not the throttle
        let refused = try await Self.post(
            "/api/v1/sessions", credentials, from: "192.0.2.1", to: server)
        #expect(refused.status == 429)
        #expect(refused.retryAfter == "2")
        #expect((refused.json["detail"] as? String)?.contains("sign-ups or sign-ins") == true)
        // And from another address the same account signs in
        #expect(
            try await Self.post("/api/v1/sessions", credentials, from: "192.0.2.2", to: server)
                .status == 201)
        clock.advance(by: .seconds(2))
        #expect(
            try await Self.post("/api/v1/sessions", credentials, from: "192.0.2.1", to: server)
                .status == 201)
    }

    @Test func theAddressTableStaysBoundedUnderAHundredThousandAddresses() {
        let clock = ManualClock()
        let limiter = RateLimiter(
            limits: RateLimits(
                perAddress: Self.every(10, burst: 2), overall: nil, trackedAddresses: 1_000),
            clock: clock)
        var most = 0
        for index in 0..<100_000 {
            let address = "10.\(index >> 16).\((index >> 8) & 255).\(index & 255)"
            #expect(limiter.admit(address: address) == nil)
            most = max(most, limiter.trackedAddresses)
            if index % 1_000 == 0 { clock.advance(by: .milliseconds(1)) }
        }
        #expect(most <= 1_000)
        // And an address seen last is still limited after its burst
        #expect(limiter.admit(address: "10.1.134.159") == nil)
        #expect(limiter.admit(address: "10.1.134.159") != nil)
    }

    @Test(arguments: [
        ("2001:db8::1", "2001:db8::ffff:2", true),
        ("2001:db8::1", "2001:db8:0:1::1", false),
        ("::ffff:192.0.2.1", "192.0.2.1", true),
        ("192.0.2.1", "192.0.2.2", false),
    ])
    func addressesShareABucketByIPv4AddressOrIPv6Slash64(
        first: String, second: String, shared: Bool
    ) {
        #expect((RateLimiter.key(first) == RateLimiter.key(second)) == shared)
    }
}
