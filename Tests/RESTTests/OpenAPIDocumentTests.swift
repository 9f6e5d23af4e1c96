import Foundation
import HTTPCore
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Testing

/// `GET /api/v1/openapi.json` against the live server: the document names exactly the
/// routes the server has, and the server really answers every status it documents.
@Suite struct OpenAPIDocumentTests {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The live document's operations as `METHOD path` → documented statuses.
    static func operations(of document: [String: Any]) -> [String: Set<Int>] {
        var result: [String: Set<Int>] = [:]
        for (path, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for method in methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                let responses = operation["responses"] as? [String: Any] ?? [:]
                result["\(method.uppercased()) \(path)"] = Set(
                    responses.keys.compactMap { Int($0) })
            }
        }
        return result
    }

    static func fetchDocument(_ client: RESTClient) throws -> [String: Any] {
        let response = try client.send("GET", "/api/v1/openapi.json")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        return response.json
    }

    @Test func theDocumentNamesExactlyTheRoutesTheServerHas() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = RESTClient(server)
        let document = try Self.fetchDocument(client)
        #expect(document["openapi"] as? String == "3.1.0")
        let documented = Set(Self.operations(of: document).keys)
        let routed = Set(RESTEndpoint.allCases.map { "\($0.method.rawValue) \($0.path)" })
        #expect(documented == routed)
        // And each operationId is the endpoint's.
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        for endpoint in RESTEndpoint.allCases {
            let operation =
                paths[endpoint.path]?[endpoint.method.rawValue.lowercased()] as? [String: Any]
            #expect(operation?["operationId"] as? String == endpoint.operationID)
        }
    }

    /// Every documented path+method reaches a REST handler (not the router's plain
    /// 404 or 405), and every other method on those paths is the router's 405.
    @Test func theLiveRouterAnswersEveryDocumentedOperationAndNoOther() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = RESTClient(server)
        let operations = Self.operations(of: try Self.fetchDocument(client))
        let paths = Set(operations.keys.map { String($0.split(separator: " ")[1]) })
        for path in paths {
            let concrete = path.replacingOccurrences(of: "{id}", with: "1")
            for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] {
                let response = try client.send(method, concrete, json: [String: String]())
                if operations["\(method) \(path)"] != nil {
                    #expect(
                        response.header("Content-Type")?.hasPrefix("application/") == true,
                        "\(method) \(path) → \(response.status)")
                    #expect(operations["\(method) \(path)"]?.contains(response.status) == true)
                } else {
                    #expect(response.status == 405, "\(method) \(path)")
                    #expect(response.header("Allow") != nil)
                }
            }
        }
    }

    /// Drives the server into each documented answer and checks the documented set is
    /// exactly what the server produced (500 through a store whose disk has failed).
    @Test func everyDocumentedStatusIsProducible() async throws {
        let server = try TestServer(
            .init(
                quota: 2, quotaBytes: 64,
                signInLimits: SignInLimits(perAccount: 2, perAddress: 50, window: .seconds(60))))
        defer { server.shutdown() }
        let closedServer = try TestServer(.init(signup: .closed))
        defer { closedServer.shutdown() }
        let oneSignUpAnHour = RateLimits(
            perAddress: RateLimits.Rate(burst: 1, interval: .seconds(3_600)), overall: nil)
        let limitedServer = try TestServer(.init(signUpRate: oneSignUpAnHour))
        defer { limitedServer.shutdown() }
        var produced: [String: Set<Int>] = [:]
        func record(_ key: String, _ response: RESTClient.Response) {
            produced[key, default: []].insert(response.status)
        }
        let anonymous = RESTClient(server)
        let credentials = ["email": "ann@example.com", "password": "password 123"]

        let accounts = "POST /api/v1/accounts"
        record(accounts, try anonymous.send("POST", "/api/v1/accounts", json: credentials))
        let ann = try anonymous.with(token: nil).send("POST", "/api/v1/sessions", json: credentials)
        let client = anonymous.with(token: ann.json["token"] as? String)
        record(accounts, try anonymous.send("POST", "/api/v1/accounts", rawBody: "{"))
        record(
            accounts,
            try RESTClient(closedServer).send(
                "POST", "/api/v1/accounts", json: credentials))
        record(accounts, try anonymous.send("POST", "/api/v1/accounts", json: credentials))
        let limited = RESTClient(limitedServer)
        _ = try limited.send("POST", "/api/v1/accounts", json: credentials)
        record(
            accounts,
            try limited.send(
                "POST", "/api/v1/accounts",
                json: ["email": "bob@example.com", "password": "password 123"]))
        record(
            accounts,
            try anonymous.send("POST", "/api/v1/accounts", rawBody: "x", contentType: "text/plain"))
        record(
            accounts,
            try anonymous.send(
                "POST", "/api/v1/accounts", json: ["email": "x", "password": "password 123"]))

        let sessions = "POST /api/v1/sessions"
        record(sessions, ann)
        record(sessions, try anonymous.send("POST", "/api/v1/sessions", rawBody: "[]"))
        record(
            sessions,
            try anonymous.send("POST", "/api/v1/sessions", rawBody: "x", contentType: "text/plain"))
        record(
            sessions,
            try anonymous.send("POST", "/api/v1/sessions", json: ["email": "ann@example.com"]))
        let wrong = ["email": "ann@example.com", "password": "wrong password"]
        record(sessions, try anonymous.send("POST", "/api/v1/sessions", json: wrong))
        record(sessions, try anonymous.send("POST", "/api/v1/sessions", json: wrong))
        record(sessions, try anonymous.send("POST", "/api/v1/sessions", json: wrong))

        let list = "GET /api/v1/notes"
        record(list, try client.send("GET", "/api/v1/notes"))
        record(list, try client.send("GET", "/api/v1/notes?limit=0"))
        record(list, try anonymous.send("GET", "/api/v1/notes"))

        let create = "POST /api/v1/notes"
        let created = try client.send("POST", "/api/v1/notes", json: ["content": "one"])
        record(create, created)
        let id = created.json["id"] as? Int ?? 0
        let etag = created.header("ETag") ?? ""
        record(create, try client.send("POST", "/api/v1/notes", rawBody: "{"))
        record(create, try anonymous.send("POST", "/api/v1/notes", json: ["content": "x"]))
        record(
            create,
            try client.send(
                "POST", "/api/v1/notes", json: ["content": String(repeating: "x", count: 70_000)]))
        record(
            create,
            try client.send("POST", "/api/v1/notes", rawBody: "x", contentType: "text/plain"))
        record(create, try client.send("POST", "/api/v1/notes", json: ["content": ""]))
        _ = try client.send("POST", "/api/v1/notes", json: ["content": "two"])
        record(create, try client.send("POST", "/api/v1/notes", json: ["content": "three"]))

        let get = "GET /api/v1/notes/{id}"
        record(get, try client.send("GET", "/api/v1/notes/\(id)"))
        record(get, try anonymous.send("GET", "/api/v1/notes/\(id)"))
        record(get, try client.send("GET", "/api/v1/notes/999"))

        for (method, body) in [
            ("PUT", ["content": "x", "date": "2026-01-01"]), ("PATCH", ["content": "y"]),
        ] {
            let key = "\(method) /api/v1/notes/{id}"
            record(key, try client.send(method, "/api/v1/notes/\(id)", json: body))
            record(key, try client.send(method, "/api/v1/notes/\(id)", rawBody: "{"))
            record(key, try anonymous.send(method, "/api/v1/notes/\(id)", json: body))
            record(key, try client.send(method, "/api/v1/notes/999", json: body))
            record(
                key,
                try client.send(
                    method, "/api/v1/notes/\(id)", json: body, headers: ["If-Match": etag]))
            record(
                key,
                try client.send(
                    method, "/api/v1/notes/\(id)",
                    json: ["content": String(repeating: "x", count: 70_000), "date": "2026-01-01"]))
            // Content past the account's 64 bytes: 403, as a create past its quota.
            record(
                key,
                try client.send(
                    method, "/api/v1/notes/\(id)",
                    json: ["content": String(repeating: "q", count: 100), "date": "2026-01-01"]))
            record(
                key,
                try client.send(
                    method, "/api/v1/notes/\(id)", rawBody: "x", contentType: "text/plain"))
            record(
                key,
                try client.send(
                    method, "/api/v1/notes/\(id)", json: ["content": "x", "date": "never"]))
        }

        let delete = "DELETE /api/v1/notes/{id}"
        record(
            delete, try client.send("DELETE", "/api/v1/notes/\(id)", headers: ["If-Match": etag]))
        record(delete, try anonymous.send("DELETE", "/api/v1/notes/\(id)"))
        record(delete, try client.send("DELETE", "/api/v1/notes/\(id)"))
        record(delete, try client.send("DELETE", "/api/v1/notes/\(id)"))

        let listSessions = "GET /api/v1/sessions"
        record(listSessions, try client.send("GET", "/api/v1/sessions"))
        record(listSessions, try anonymous.send("GET", "/api/v1/sessions"))
        let others = "DELETE /api/v1/sessions"
        record(others, try client.send("DELETE", "/api/v1/sessions"))
        record(others, try anonymous.send("DELETE", "/api/v1/sessions"))
        let revoke = "DELETE /api/v1/sessions/{id}"
        // An account of its own: ann's failed sign-ins above already fill her throttle.
        let patCredentials = ["email": "pat@example.com", "password": "password 123"]
        let pat = try anonymous.signUp("pat@example.com")
        let second = try anonymous.send("POST", "/api/v1/sessions", json: patCredentials)
        let secondClient = anonymous.with(token: second.json["token"] as? String)
        let secondID = try #require(
            (try secondClient.send("GET", "/api/v1/sessions").json["sessions"] as? [[String: Any]])?
                .first { $0["current"] as? Bool == true }?["id"] as? String)
        record(revoke, try pat.send("DELETE", "/api/v1/sessions/\(secondID)"))
        record(revoke, try pat.send("DELETE", "/api/v1/sessions/\(secondID)"))
        record(revoke, try anonymous.send("DELETE", "/api/v1/sessions/\(secondID)"))
        let password = "POST /api/v1/account/password"
        let change = ["currentPassword": "password 123", "newPassword": "password 456"]
        record(password, try anonymous.send("POST", "/api/v1/account/password", json: change))
        record(password, try pat.send("POST", "/api/v1/account/password", rawBody: "{"))
        record(
            password,
            try pat.send(
                "POST", "/api/v1/account/password", rawBody: "x", contentType: "text/plain"))
        record(
            password,
            try pat.send(
                "POST", "/api/v1/account/password",
                json: ["currentPassword": "password 123", "newPassword": "short"]))
        record(password, try pat.send("POST", "/api/v1/account/password", json: change))
        let wrongCurrent = ["currentPassword": "wrong password", "newPassword": "password 789"]
        for _ in 0..<3 {
            record(password, try pat.send("POST", "/api/v1/account/password", json: wrongCurrent))
        }

        let signOut = "DELETE /api/v1/sessions/current"
        record(signOut, try client.send("DELETE", "/api/v1/sessions/current"))
        record(signOut, try client.send("DELETE", "/api/v1/sessions/current"))

        record("GET /api/v1/openapi.json", try anonymous.send("GET", "/api/v1/openapi.json"))

        // The change feed, and its stream over a socket (a 200 never ends).
        let changes = "GET /api/v1/changes"
        let feedReader = try anonymous.signUp("feed@example.com")
        record(changes, try feedReader.send("GET", "/api/v1/changes"))
        record(changes, try feedReader.send("GET", "/api/v1/changes?limit=0"))
        record(changes, try anonymous.send("GET", "/api/v1/changes"))
        record(changes, try feedReader.send("GET", "/api/v1/changes?since=99"))
        var streams = TestServer.Options()
        streams.changeFeed.streamsPerAccount = 1
        streams.changeFeed.maximumStreams = 2
        let streamServer = try TestServer(streams)
        defer { streamServer.shutdown() }
        let streamTokens = try ["ann", "bob", "cy"].map {
            try streamServer.createAccount(email: "\($0)@example.com")
        }
        var open: [EventStreamClient] = []
        defer { open.forEach { $0.disconnect() } }
        for (token, headers) in [
            (streamTokens[0], [:]), (streamTokens[0], [:]), (streamTokens[1], [:]),
            (streamTokens[2], [:]), (nil, [:]), (streamTokens[2], ["Last-Event-ID": "x"]),
            (streamTokens[2], ["Last-Event-ID": "99"]),
        ] as [(String?, [String: String])] {
            let stream = try EventStreamClient(
                port: streamServer.port, token: token, headers: headers)
            open.append(stream)
            produced["GET /api/v1/changes/stream", default: []].insert(
                try await stream.head().status)
        }

        // A failed database: every operation that documents 500 answers it, as a problem.
        let broken = try TestServer(
            .init(threads: 1, failing: [.accountLookup, .notes, .accounts]))
        defer { broken.shutdown() }
        let token = try broken.createAccount(email: "ann@example.com", password: "password 123")
        let failing = RESTClient(broken, token: token)
        for endpoint in RESTEndpoint.allCases where endpoint != .openAPIDocument {
            let path = endpoint.path.replacingOccurrences(of: "{id}", with: "1")
            let body = ["email": "bob@example.com", "password": "password 123", "content": "x"]
            let fields: [String: String] =
                switch endpoint {
                case .createAccount, .createSession:
                    ["email": body["email"]!, "password": body["password"]!]
                case .replaceNote: ["content": "x", "date": "2026-11-29"]
                case .createNote, .updateNote: ["content": "x"]
                case .changePassword:
                    ["currentPassword": "password 123", "newPassword": "password 456"]
                default: [:]
                }
            let response = try failing.send(
                endpoint.method.rawValue, path, json: fields.isEmpty ? nil : fields)
            #expect(response.status == 500, "\(endpoint)")
            #expect(response.problemCode == -3)
            record("\(endpoint.method.rawValue) \(endpoint.path)", response)
        }

        let documented = Self.operations(of: try Self.fetchDocument(anonymous))
        #expect(produced == documented)
    }

    static let dates = [
        "2026-11-29", "2026-11-29 18:30", "2026-11-29 18:30:59", "0001-01-01",
        "9999-12-31 23:59:59",
        "2024-02-29", "2000-02-29", "1600-02-29", "0004-02-29", "2026-04-30", "2026-01-31",
        "0000-01-01", "2026-00-10", "2026-13-01", "2026-01-00", "2026-01-32", "2026-04-31",
        "2026-02-29", "1900-02-29", "2100-02-29", "0100-02-29", "2026-02-30", "2026-11-29 24:00",
        "2026-11-29 23:60", "2026-11-29 23:59:60", "2026-11-29T18:30", "2026-11-29 18", "26-11-29",
        "2026-1-29", "２０２６-11-29", "2026-11-29 ", " 2026-11-29", "",
    ]

    /// The document's date pattern says exactly what the server accepts, so a client or a
    /// fuzzer can tell a valid date without asking.
    @Test func theDocumentedDatePatternIsExactlyWhatTheServerAccepts() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let document = try Self.fetchDocument(client)
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let replacement = schemas?["NoteReplacement"] as? [String: Any]
        let properties = replacement?["properties"] as? [String: [String: Any]]
        let pattern = try #require(properties?["date"]?["pattern"] as? String)
        let regex = try NSRegularExpression(pattern: pattern)
        for date in Self.dates {
            let range = NSRange(date.startIndex..., in: date)
            let matches = regex.firstMatch(in: date, range: range) != nil
            let status = try client.send(
                "POST", "/api/v1/notes", json: ["content": "x", "date": date]
            ).status
            #expect(matches == (status == 201), "\(date): pattern \(matches), server \(status)")
        }
    }

    @Test func theDocumentedContentPatternIsExactlyWhatTheServerAccepts() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let document = try Self.fetchDocument(client)
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let newNote = schemas?["NewNote"] as? [String: Any]
        let properties = newNote?["properties"] as? [String: [String: Any]]
        let pattern = try #require(properties?["content"]?["pattern"] as? String)
        // NSRegularExpression (ICU) reads \uXXXX as ECMAScript does.
        let regex = try NSRegularExpression(pattern: pattern)
        let samples = [
            "plain", "tab\tline\nreturn\r", "中文 and émoji 🎉", "\u{85}next line", "\u{FFFD}",
            "nul\u{0}", "bell\u{7}", "escape\u{1B}", "delete\u{7F}", "\u{FFFE}", "x\u{FFFF}",
            "\u{B}", "\u{C}",
        ]
        for content in samples {
            let matches =
                regex.firstMatch(in: content, range: NSRange(content.startIndex..., in: content))
                != nil
            let status = try client.send("POST", "/api/v1/notes", json: ["content": content]).status
            #expect(
                matches == (status == 201), "\(content.debugDescription): \(matches), \(status)")
        }
    }

    @Test func theDocumentedEmailPatternIsExactlyWhatTheServerAccepts() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = RESTClient(server)
        let document = try Self.fetchDocument(client)
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let credentials = schemas?["Credentials"] as? [String: Any]
        let properties = credentials?["properties"] as? [String: [String: Any]]
        let pattern = try #require(properties?["email"]?["pattern"] as? String)
        let regex = try NSRegularExpression(pattern: pattern)
        let samples = [
            "a@b", " c@d.example ", "名字@例子.中国", "e+tag@x.org", "f@g@h", "@i.org", "j@", "k l@m.org",
            "n@o.org\t", "p\u{7F}@q.org", "", "   ",
            // Harder cases: controls, bidi marks, invisible characters, mixed scripts.
            "\u{9B}2J\u{9B}31mroot@x", "<svg/onload=alert(1)>@x\u{202E}gro.evil",
            "ann@example.com\u{A0}", "\u{430}nn@example.com", "a\u{200B}b@c", "a\u{E0041}b@c",
            "tanaka田中たなか@example.jp", "иван@пример.рф", "\u{3B1}\u{3B2}@x", "a\u{3B1}@x",
            "김a@x", "김か@x", "e\u{301}@x", "a\u{FFA0}@x",
        ]
        for email in samples {
            let matches =
                regex.firstMatch(in: email, range: NSRange(email.startIndex..., in: email)) != nil
            let status = try client.send(
                "POST", "/api/v1/accounts", json: ["email": email, "password": "password 123"]
            ).status
            #expect(matches == (status == 201), "\(email.debugDescription): \(matches), \(status)")
        }
    }
}
