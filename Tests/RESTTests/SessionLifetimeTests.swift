import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Testing

/// Sessions once never expired. Now a sign-in's token ends after 30 days unused or
/// 90 days in all (``SessionLifetime/standard``), on both APIs; the operator's access key
/// never does. Time is a `ManualClock`: a month passes in no time.
@Suite struct SessionLifetimeTests {
    static let day = Duration.seconds(86_400)

    struct Setup {
        let server: TestServer
        let clock = ManualClock()
        let anonymous: RESTClient

        init(lifetime: SessionLifetime = .standard) throws {
            let clock = self.clock
            server = try TestServer(.init(clock: clock, sessionLifetime: lifetime))
            anonymous = RESTClient(server)
        }

        func signIn(_ email: String = "ann@example.com") throws -> RESTClient {
            let response = try anonymous.send(
                "POST", "/api/v1/sessions", json: ["email": email, "password": "password 123"])
            guard let token = response.json["token"] as? String else {
                throw RESTClient.Unexpected(response)
            }
            return anonymous.with(token: token)
        }

        func legacyQuery(_ token: String?) throws -> String {
            try anonymous.send(
                "GET",
                "/mynotes/webservice.php?email=ann@example.com&action=query&token=\(token ?? "")"
            ).text
        }

        func tokens(_ email: String = "ann@example.com") async throws -> [Session] {
            guard let account = try await server.store.account(email: email) else { return [] }
            return try await server.store.sessions(account: account.id)
        }
    }

    @Test func aSessionUnusedFor30DaysEnds() throws {
        let setup = try Setup()
        defer { setup.server.shutdown() }
        let ann = try setup.anonymous.signUp("ann@example.com")
        setup.clock.advance(by: Self.day * 29)
        #expect(try ann.send("GET", "/api/v1/notes").status == 200)
        setup.clock.advance(by: Self.day * 29)
        #expect(try ann.send("GET", "/api/v1/notes").status == 200, "used 29 days ago")
        setup.clock.advance(by: Self.day * 30)
        let expired = try ann.send("GET", "/api/v1/notes")
        #expect(expired.status == 401)
        #expect(expired.header("WWW-Authenticate")?.contains("invalid_token") == true)
        #expect(try setup.legacyQuery(ann.token).contains(#""ResultCode":-9"#))
    }

    @Test func aSessionEndsAfter90DaysHoweverOftenUsed() throws {
        let setup = try Setup()
        defer { setup.server.shutdown() }
        let ann = try setup.anonymous.signUp("ann@example.com")
        for _ in 0..<4 {
            setup.clock.advance(by: Self.day * 20)
            #expect(try ann.send("GET", "/api/v1/notes").status == 200)
        }
        setup.clock.advance(by: Self.day * 11)
        #expect(try ann.send("GET", "/api/v1/notes").status == 401, "91 days after sign-up")
        #expect(try setup.signIn().send("GET", "/api/v1/notes").status == 200)
    }

    @Test func theLegacyProtocolEndsSessionsToo() throws {
        let setup = try Setup()
        defer { setup.server.shutdown() }
        let ann = try setup.anonymous.signUp("ann@example.com")
        #expect(try setup.legacyQuery(ann.token) == #"{"ResultCode":0,"Record":[]}"#)
        setup.clock.advance(by: Self.day * 31)
        // No write since: the kept answer (LegacyAnswerCache) would still be current, but
        // not for a session past its lifetime.
        #expect(try setup.legacyQuery(ann.token).contains(#""ResultCode":-9"#))
        let add = try setup.anonymous.send(
            "GET",
            "/mynotes/webservice.php?email=ann@example.com&action=add&date=2026-12-01&content=x&token=\(ann.token ?? "")"
        )
        #expect(add.text.contains(#""ResultCode":-9"#))
    }

    @Test func theOperatorsAccessKeyNeverExpires() throws {
        let setup = try Setup()
        defer { setup.server.shutdown() }
        let key = try setup.server.createAccount(email: "ann@example.com")
        setup.clock.advance(by: Self.day * 400)
        #expect(try setup.legacyQuery(key) == #"{"ResultCode":0,"Record":[]}"#)
        #expect(try setup.anonymous.with(token: key).send("GET", "/api/v1/notes").status == 200)
    }

    @Test(arguments: [
        SessionLifetime.unlimited, SessionLifetime(idle: nil, absolute: .seconds(86_400 * 500)),
    ])
    func liftedLimitsKeepSessions(lifetime: SessionLifetime) throws {
        let setup = try Setup(lifetime: lifetime)
        defer { setup.server.shutdown() }
        let ann = try setup.anonymous.signUp("ann@example.com")
        setup.clock.advance(by: Self.day * 400)
        #expect(try ann.send("GET", "/api/v1/notes").status == 200)
    }

    /// A use is recorded at most once a minute: reads within the minute write nothing.
    @Test func lastUseIsRecordedAtMostOnceAMinute() async throws {
        let setup = try Setup()
        defer { setup.server.shutdown() }
        let ann = try setup.anonymous.signUp("ann@example.com")
        let issued = try #require(try await setup.tokens().first)
        #expect(issued.lastUsedAt == issued.createdAt)
        setup.clock.advance(by: .seconds(30))
        #expect(try ann.send("GET", "/api/v1/notes").status == 200)
        #expect(try await setup.tokens().first?.lastUsedAt == issued.createdAt, "30 s: no write")
        setup.clock.advance(by: .seconds(40))
        #expect(try ann.send("GET", "/api/v1/notes").status == 200)
        let touched = try #require(try await setup.tokens().first?.lastUsedAt)
        // The server's clock started a little before the token was made.
        #expect(touched >= issued.createdAt + 60_000)
        for _ in 0..<5 {
            setup.clock.advance(by: .seconds(5))
            #expect(try setup.legacyQuery(ann.token).contains(#""ResultCode":0"#))
        }
        #expect(try await setup.tokens().first?.lastUsedAt == touched, "25 s more: no write")
        setup.clock.advance(by: .seconds(40))
        #expect(try setup.legacyQuery(ann.token).contains(#""ResultCode":0"#))
        #expect(try await setup.tokens().first?.lastUsedAt ?? 0 > touched, "the legacy use counts")
    }

    /// The finding: 12 sign-ins left 13 rows. Signing out deletes the row, an expired
    /// session presented is deleted, and a sign-in sweeps the expired ones.
    @Test func tokensDoNotPileUp() async throws {
        let setup = try Setup()
        defer { setup.server.shutdown() }
        try setup.server.createAccount(email: "ann@example.com", password: "password 123")
        for _ in 0..<12 {
            let session = try setup.signIn()
            #expect(try session.send("DELETE", "/api/v1/sessions/current").status == 204)
        }
        #expect(try await setup.tokens().count == 1, "the first token, and no sign-in's")
        let stale = try (0..<3).map { _ in try setup.signIn() }
        #expect(try await setup.tokens().count == 4)
        setup.clock.advance(by: Self.day * 31)
        #expect(try stale[0].send("GET", "/api/v1/notes").status == 401)
        #expect(try await setup.tokens().count == 3, "the expired one presented is gone")
        _ = try setup.signIn()
        #expect(try await setup.tokens().count == 1, "a sign-in swept the expired sessions")
    }
}
