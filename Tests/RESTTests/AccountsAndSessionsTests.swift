import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Testing

/// Sign-up, sign-in, sign-out and tokens shared with the legacy protocol, through real HTTP.
@Suite(.serialized) struct AccountsAndSessionsTests {
    @Test func signUpReturnsATokenThatWorksOnBothAPIs() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let anonymous = RESTClient(server)
        let response = try anonymous.send(
            "POST", "/api/v1/accounts",
            json: ["email": " Ann@Example.com ", "password": "password 123"])
        #expect(response.status == 201)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        // Normalized: the domain lower-cased, the local part as sent.
        #expect(response.json["email"] as? String == "Ann@example.com")
        let token = try #require(response.json["token"] as? String)
        #expect(try anonymous.with(token: token).send("GET", "/api/v1/notes").status == 200)
        let legacy = try anonymous.send(
            "GET", "/mynotes/webservice.php?email=ann@example.com&action=query&token=\(token)")
        #expect(legacy.text == #"{"ResultCode":0,"Record":[]}"#)
    }

    @Test func aTokenFromTheOperatorWorksOnTheRESTAPI() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let token = try server.createAccount(email: "ops@example.com")
        let client = RESTClient(server, token: token)
        _ = try client.createNote("made over REST")
        let legacy = try client.send(
            "GET", "/mynotes/webservice.php?email=ops@example.com&action=query&token=\(token)")
        #expect(legacy.text.contains("made over REST"))
    }

    @Test(
        arguments: [
            (["email": "not-an-email", "password": "password 123"], 422, "email"),
            (["email": "a@example.com", "password": "short"], 422, "password"),
            (["email": "a@example.com", "password": "七个字符的密码"], 422, "password"),
            (["email": "a@example.com"], 422, "password"),
            (["email": "a@example.com", "password": 12_345_678], 400, "password"),
            (["email": "a@example.com", "password": "password 123", "name": "Ann"], 400, "name"),
        ] as [([String: any Sendable], Int, String)])
    func signUpRefusesBadInputNamingTheField(
        body: [String: any Sendable], status: Int, field: String
    ) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try RESTClient(server).send(
            "POST", "/api/v1/accounts", json: body)
        #expect(response.status == status)
        #expect(response.isProblem)
        #expect(response.detail.contains("'\(field)'"))
    }

    @Test func aTakenEmailIsAConflictInAnyCase() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = RESTClient(server)
        _ = try client.signUp("ann@example.com")
        let again = try client.send(
            "POST", "/api/v1/accounts",
            json: ["email": "ANN@example.com", "password": "password 456"])
        #expect(again.status == 409)
        #expect(again.problemCode == 409)
        #expect(again.json["title"] as? String == "Conflict")
    }

    @Test func signUpCanBeTurnedOff() throws {
        let server = try TestServer(.init(signup: .closed))
        defer { server.shutdown() }
        let response = try RESTClient(server).send(
            "POST", "/api/v1/accounts",
            json: ["email": "a@example.com", "password": "password 123"],
            headers: ["Accept-Language": "zh-CN"])
        #expect(response.status == 403)
        #expect(response.json["title"] as? String == "Forbidden")
        #expect(response.detail == "本服务器不开放注册。")
    }

    @Test func signInIssuesANewTokenAndTheOthersStayValid() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let first = try RESTClient(server).signUp(
            "ann@example.com", password: "pass word 1")
        let response = try first.with(token: nil).send(
            "POST", "/api/v1/sessions",
            json: ["email": "ann@example.com", "password": "pass word 1"])
        #expect(response.status == 201)
        let second = first.with(token: try #require(response.json["token"] as? String))
        #expect(second.token != first.token)
        #expect(try first.send("GET", "/api/v1/notes").status == 200)
        #expect(try second.send("GET", "/api/v1/notes").status == 200)
    }

    @Test func wrongPasswordAndUnknownEmailGetTheSameAnswer() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = RESTClient(server)
        _ = try client.signUp("ann@example.com")
        let wrong = try client.send(
            "POST", "/api/v1/sessions",
            json: ["email": "ann@example.com", "password": "wrong pass"])
        let unknown = try client.send(
            "POST", "/api/v1/sessions",
            json: ["email": "bob@example.com", "password": "wrong pass"])
        for response in [wrong, unknown] {
            #expect(response.status == 401)
            #expect(response.header("WWW-Authenticate") == #"Bearer realm="mynotes""#)
            #expect(response.problemCode == -9)
        }
        #expect(wrong.text == unknown.text)
    }

    @Test func anAccountMadeByTheOperatorCannotSignInUntilItHasAPassword() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        try server.createAccount(email: "ops@example.com")
        let client = RESTClient(server)
        let credentials = ["email": "ops@example.com", "password": "password 123"]
        #expect(try client.send("POST", "/api/v1/sessions", json: credentials).status == 401)
        try await server.services.sessions.setPassword("password 123", email: "ops@example.com")
        #expect(try client.send("POST", "/api/v1/sessions", json: credentials).status == 201)
    }

    @Test func signOutRevokesOnlyTheTokenUsedOnBothAPIs() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let first = try RESTClient(server).signUp(
            "ann@example.com", password: "pass word 1")
        let signIn = try first.with(token: nil).send(
            "POST", "/api/v1/sessions",
            json: ["email": "ann@example.com", "password": "pass word 1"])
        let second = first.with(token: signIn.json["token"] as? String)
        #expect(try second.send("DELETE", "/api/v1/sessions/current").status == 204)
        let revoked = try second.send("GET", "/api/v1/notes")
        #expect(revoked.status == 401)
        #expect(revoked.header("WWW-Authenticate")?.contains("invalid_token") == true)
        let legacy = try second.send(
            "GET",
            "/mynotes/webservice.php?email=ann@example.com&action=query&token=\(second.token ?? "")"
        )
        #expect(legacy.text.contains(#""ResultCode":-9"#))
        #expect(try second.send("DELETE", "/api/v1/sessions/current").status == 401)
        #expect(try first.send("GET", "/api/v1/notes").status == 200)
    }

    @Test func resetTokenRevokesEverySession() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let session = try RESTClient(server).signUp("ann@example.com")
        let newToken = try await AccountService(store: server.store)
            .resetToken(email: "ann@example.com")
        #expect(try session.send("GET", "/api/v1/notes").status == 401)
        #expect(try session.with(token: newToken).send("GET", "/api/v1/notes").status == 200)
    }

    @Test func failedSignInsAreThrottledPerAccount() throws {
        let clock = ManualClock()
        let server = try TestServer(
            .init(
                signInLimits: SignInLimits(perAccount: 3, perAddress: 100, window: .seconds(2)),
                clock: clock))
        defer { server.shutdown() }
        let client = RESTClient(server)
        _ = try client.signUp("ann@example.com", password: "right password")
        let wrong = ["email": "ann@example.com", "password": "wrong password"]
        for _ in 0..<3 {
            #expect(try client.send("POST", "/api/v1/sessions", json: wrong).status == 401)
        }
        let right = ["email": "ANN@example.com", "password": "right password"]
        let throttled = try client.send("POST", "/api/v1/sessions", json: right)
        #expect(throttled.status == 429)
        let retryAfter = try #require(throttled.header("Retry-After").flatMap { Int($0) })
        #expect(retryAfter == 2)
        #expect(throttled.detail.contains("\(retryAfter) seconds"))
        // Other accounts are not held up by it.
        _ = try client.signUp("bob@example.com", password: "bobs password")
        #expect(
            try client.send(
                "POST", "/api/v1/sessions",
                json: ["email": "bob@example.com", "password": "bobs password"]
            ).status == 201)
        // Until the window has passed, the account stays throttled; then it is free.
        clock.advance(by: .seconds(retryAfter) - .milliseconds(1))
        #expect(try client.send("POST", "/api/v1/sessions", json: right).status == 429)
        clock.advance(by: .milliseconds(1))
        #expect(try client.send("POST", "/api/v1/sessions", json: right).status == 201)
    }

    @Test func failedSignInsAreThrottledPerClientAddress() throws {
        let server = try TestServer(
            .init(signInLimits: SignInLimits(perAccount: 100, perAddress: 3, window: .seconds(60))))
        defer { server.shutdown() }
        let client = RESTClient(server)
        _ = try client.signUp("ann@example.com", password: "right password")
        for index in 0..<3 {
            let guess = ["email": "user\(index)@example.com", "password": "guess guess"]
            #expect(try client.send("POST", "/api/v1/sessions", json: guess).status == 401)
        }
        let response = try client.send(
            "POST", "/api/v1/sessions",
            json: ["email": "ann@example.com", "password": "right password"])
        #expect(response.status == 429)
        #expect(response.header("Retry-After").flatMap { Int($0) }.map { $0 > 50 } == true)
    }
}
