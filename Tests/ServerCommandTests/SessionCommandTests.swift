import Foundation
import MyNotesTesting
import Testing

/// Passwords and sessions, run as the operator runs it: `accounts set-password` revokes
/// every token of the account, and `serve --session-idle-timeout` / `--session-lifetime`
/// end sessions.
@Suite struct SessionCommandTests {
    func send(
        _ method: String, _ path: String, json: String? = nil, token: String? = nil, port: Int
    )
        throws -> RawHTTPClient.Response
    {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        if let json {
            request +=
                "Content-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)"
        } else {
            request += "\r\n"
        }
        return try RawHTTPClient(port: port).send(request)
    }

    func signIn(_ password: String, port: Int) throws -> RawHTTPClient.Response {
        try send(
            "POST", "/api/v1/sessions",
            json: #"{"email":"ann@example.com","password":"\#(password)"}"#, port: port)
    }

    func token(_ response: RawHTTPClient.Response) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["token"]
            as? String
    }

    @Test func setPasswordRevokesEveryTokenOfTheAccount() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let db = ["--database", database.location]
        let key =
            try CommandRunner.run("mynotes-server", ["accounts", "add", "ann@example.com"] + db)
            .outputLines.last ?? ""
        let bob =
            try CommandRunner.run("mynotes-server", ["accounts", "add", "bob@example.com"] + db)
            .outputLines.last ?? ""
        let server = try ServerProcess(database: database.location)
        defer { server.stop(signal: SIGTERM) }
        let query = "/mynotes/webservice.php?email=ann@example.com&action=query&token=\(key)"
        #expect(try send("GET", query, port: server.port).text.contains(#""ResultCode":0"#))

        func setPassword(_ password: String) throws {
            let set = try CommandRunner.run(
                "mynotes-server", ["accounts", "set-password", "ann@example.com"] + db,
                input: password + "\n")
            #expect(set.status == 0)
        }
        try setPassword("first password")
        #expect(
            try send("GET", query, port: server.port).text.contains(#""ResultCode":-9"#),
            "the access key is revoked")
        let session = try #require(token(try signIn("first password", port: server.port)))
        #expect(try send("GET", "/api/v1/notes", token: session, port: server.port).status == 200)
        try setPassword("second password")
        #expect(try send("GET", "/api/v1/notes", token: session, port: server.port).status == 401)
        #expect(try signIn("first password", port: server.port).status == 401)
        #expect(try signIn("second password", port: server.port).status == 201)
        let bobQuery = "/mynotes/webservice.php?email=bob@example.com&action=query&token=\(bob)"
        #expect(
            try send("GET", bobQuery, port: server.port).text.contains(#""ResultCode":0"#),
            "another account keeps its token")
    }

    @Test func aSessionEndsWhenItsLifetimeIsOver() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let server = try ServerProcess(
            database: database.location,
            arguments: ["--session-lifetime", "2s", "--session-idle-timeout", "never"])
        defer { server.stop(signal: SIGTERM) }
        let signUp = try send(
            "POST", "/api/v1/accounts",
            json: #"{"email":"ann@example.com","password":"password 123"}"#, port: server.port)
        let session = try #require(token(signUp))
        #expect(try send("GET", "/api/v1/notes", token: session, port: server.port).status == 200)
        try Poll.until("the session ends 2 s after sign-up", timeout: .seconds(20)) {
            try send("GET", "/api/v1/notes", token: session, port: server.port).status == 401
        }
    }

    @Test(arguments: [
        ("--session-idle-timeout", "banana"), ("--session-lifetime", "-1d"),
        ("--session-lifetime", "3w"), ("--session-idle-timeout", ""),
        ("--session-lifetime", "99999999999d"),
    ])
    func aLifetimeThatIsNoDurationIsAUsageError(option: String, value: String) throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let result = try CommandRunner.run(
            "mynotes-server", ["serve", "--database", database.location, option, value])
        #expect(result.status == 2)
        #expect(
            result.standardError.hasPrefix(
                "mynotes-server: option '\(option)' must be a duration such as 30d"))
    }
}
