import Foundation
import MyNotesTesting
import Synchronization
import Testing

/// The notes endpoints through real HTTP: authentication, ownership, validation,
/// ETags and `If-Match`, pages and search.
@Suite struct NotesTests {
    static let noteOperations: [(String, String)] = [
        ("GET", "/api/v1/notes"), ("POST", "/api/v1/notes"), ("GET", "/api/v1/notes/1"),
        ("PUT", "/api/v1/notes/1"), ("PATCH", "/api/v1/notes/1"), ("DELETE", "/api/v1/notes/1"),
        ("DELETE", "/api/v1/sessions/current"),
    ]

    @Test(arguments: noteOperations)
    func withoutATokenEveryOperationIs401(method: String, path: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = RESTClient(server)
        let body = ["content": "x", "date": "2026-11-29"]
        let missing = try client.send(method, path, json: body)
        #expect(missing.status == 401)
        #expect(missing.header("WWW-Authenticate") == #"Bearer realm="mynotes""#)
        #expect(missing.isProblem)
        #expect(missing.problemCode == -9)
        let wrong = try client.with(token: "not-a-token").send(method, path, json: body)
        #expect(wrong.status == 401)
        #expect(
            wrong.header("WWW-Authenticate") == #"Bearer realm="mynotes", error="invalid_token""#)
    }

    @Test func createReadReplacePatchDelete() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let created = try client.send(
            "POST", "/api/v1/notes", json: ["content": "Buy milk", "date": "2026-11-29 18:30"])
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? Int)
        #expect(created.header("Location") == "/api/v1/notes/\(id)")
        #expect(created.json["date"] as? String == "2026-11-29 18:30:00")
        #expect((created.json["createdAt"] as? String)?.hasSuffix("Z") == true)
        let etag = try #require(created.header("ETag"))

        let read = try client.send("GET", "/api/v1/notes/\(id)")
        #expect(read.status == 200)
        #expect(read.header("ETag") == etag)
        #expect(read.header("X-Content-Type-Options") == "nosniff")
        #expect(read.json["content"] as? String == "Buy milk")

        let replaced = try client.send(
            "PUT", "/api/v1/notes/\(id)", json: ["content": "Buy oat milk", "date": "2026-11-30"])
        #expect(replaced.status == 200)
        #expect(replaced.header("ETag") != etag)
        #expect(replaced.json["date"] as? String == "2026-11-30")

        let patched = try client.send("PATCH", "/api/v1/notes/\(id)", json: ["content": "Buy tea"])
        #expect(patched.status == 200)
        #expect(patched.json["date"] as? String == "2026-11-30")
        #expect(patched.json["content"] as? String == "Buy tea")

        #expect(try client.send("DELETE", "/api/v1/notes/\(id)").status == 204)
        let gone = try client.send("GET", "/api/v1/notes/\(id)")
        #expect(gone.status == 404)
        #expect(gone.header("X-Content-Type-Options") == "nosniff")
        #expect(gone.problemCode == -7)
        #expect(gone.detail == "No such note.")
    }

    @Test func aNewNoteWithoutADateIsDatedNowInUTC() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, _) = try client.createNote("undated")
        let date = try #require(note["date"] as? String)
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let parsed = try #require(formatter.date(from: date))
        #expect(abs(parsed.timeIntervalSinceNow) < 60)
    }

    @Test(arguments: ["GET", "PUT", "PATCH", "DELETE"])
    func anotherAccountsNoteIsNotFound(method: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let ann = try RESTClient(server).signUp("ann@example.com")
        let bob = try RESTClient(server).signUp("bob@example.com")
        let (note, etag) = try ann.createNote("Ann's secret")
        let id = try #require(note["id"] as? Int)
        let response = try bob.send(
            method, "/api/v1/notes/\(id)", json: ["content": "Bob was here", "date": "2026-01-01"],
            headers: ["If-Match": etag])
        #expect(response.status == 404)
        #expect(response.problemCode == -7)
        let still = try ann.send("GET", "/api/v1/notes/\(id)")
        #expect(still.json["content"] as? String == "Ann's secret")
        #expect(try bob.send("GET", "/api/v1/notes").json["notes"] as? [Any] == nil ? false : true)
        #expect((try bob.send("GET", "/api/v1/notes").json["notes"] as? [Any])?.isEmpty == true)
    }

    @Test(arguments: [
        "/api/v1/notes/0", "/api/v1/notes/abc", "/api/v1/notes/-1",
        "/api/v1/notes/99999999999999999999",
    ])
    func pathsThatNameNoNoteAre404(path: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let response = try client.send("GET", path)
        #expect(response.status == 404)
        #expect(response.isProblem)
    }

    @Test(arguments: ["PUT", "PATCH", "DELETE"])
    func ifMatchGuardsEveryWrite(method: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, original) = try client.createNote("v1", date: "2026-11-29")
        let id = try #require(note["id"] as? Int)
        let changed = try client.send("PATCH", "/api/v1/notes/\(id)", json: ["content": "v2"])
        let current = try #require(changed.header("ETag"))
        let body = ["content": "v3", "date": "2026-11-29"]
        for stale in [original, "W/\(current)", "\"\(id + 1).1\"", "garbage"] {
            let refused = try client.send(
                method, "/api/v1/notes/\(id)", json: body, headers: ["If-Match": stale])
            #expect(refused.status == 412, "If-Match: \(stale)")
            #expect(refused.isProblem)
        }
        #expect(try client.send("GET", "/api/v1/notes/\(id)").json["content"] as? String == "v2")
        let accepted = try client.send(
            method, "/api/v1/notes/\(id)", json: body,
            headers: ["If-Match": "\(original), \(current)"])
        #expect(accepted.status == (method == "DELETE" ? 204 : 200))
    }

    @Test func ifMatchStarNeedsTheNoteToExist() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, _) = try client.createNote("v1")
        let id = try #require(note["id"] as? Int)
        let body = ["content": "v2"]
        #expect(
            try client.send("PATCH", "/api/v1/notes/\(id)", json: body, headers: ["If-Match": "*"])
                .status == 200)
        #expect(
            try client.send(
                "PATCH", "/api/v1/notes/\(id + 1)", json: body, headers: ["If-Match": "*"]
            ).status == 412)
    }

    /// Two clients edit from the same ETag: exactly one wins, the other learns of it.
    @Test func concurrentEditsFromOneETagLetExactlyOneWin() async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, etag) = try client.createNote("base")
        let id = try #require(note["id"] as? Int)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try client.send(
                        "PATCH", "/api/v1/notes/\(id)", json: ["content": "edit \(index)"],
                        headers: ["If-Match": etag]
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 1)
        #expect(statuses.filter { $0 == 412 }.count == 7)
    }

    @Test(arguments: [
        (#"{"content": "x""#, 400, -8, "JSON"),
        (#"["content"]"#, 400, -8, "object"),
        (#"{"content": "x", "colour": "red"}"#, 400, -8, "'colour'"),
        (#"{"content": 42}"#, 400, -8, "'content'"),
        (#"{"content": null}"#, 400, -8, "'content'"),
        (#"{"content": "x", "date": 20261129}"#, 400, -8, "'date'"),
        (#"{"date": "2026-11-29"}"#, 422, -5, "'content'"),
        (#"{"content": ""}"#, 422, -5, "'content'"),
        (#"{"content": "bell\u0007"}"#, 422, -8, "'content'"),
        (#"{"content": "x", "date": "2026-02-30"}"#, 422, -8, "'date'"),
        (#"{"content": "x", "date": "29.11.2026"}"#, 422, -8, "'date'"),
    ])
    func createRefusesBadBodiesNamingTheField(body: String, status: Int, code: Int, mention: String)
        throws
    {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let response = try client.send("POST", "/api/v1/notes", rawBody: body)
        #expect(response.status == status)
        #expect(response.problemCode == code)
        #expect(response.detail.contains(mention))
        #expect(response.json["status"] as? Int == status)
    }

    @Test func overLongContentIs413AndTheLimitItselfFits() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let tooLong = try client.send(
            "POST", "/api/v1/notes", json: ["content": String(repeating: "é", count: 32_769)])
        #expect(tooLong.status == 413)
        #expect(tooLong.detail.contains("'content'"))
        let fits = try client.send(
            "POST", "/api/v1/notes", json: ["content": String(repeating: "é", count: 32_768)])
        #expect(fits.status == 201)
    }

    @Test func putNeedsBothFieldsAndABodyMustBeJSON() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, _) = try client.createNote("x")
        let id = try #require(note["id"] as? Int)
        let noDate = try client.send("PUT", "/api/v1/notes/\(id)", json: ["content": "y"])
        #expect(noDate.status == 422)
        #expect(noDate.problemCode == -6)
        let form = try client.send(
            "POST", "/api/v1/notes", rawBody: "content=x",
            contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 415)
    }

    @Test func problemDetailsFollowAcceptLanguage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let chinese = try client.send(
            "GET", "/api/v1/notes/9", headers: ["Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"])
        #expect(chinese.detail == "没有数据。")
        #expect(chinese.header("Content-Language") == "zh-Hans")
        let english = try client.send(
            "GET", "/api/v1/notes/9", headers: ["Accept-Language": "fr, en;q=0.5"])
        #expect(english.detail == "No such note.")
        let field = try client.send(
            "POST", "/api/v1/notes", json: ["content": "x", "tags": []],
            headers: ["Accept-Language": "zh"])
        #expect(field.detail == "未知字段“tags”。")
    }

    @Test func pagesWalkEveryNoteNewestFirst() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        var ids: [Int] = []
        for index in 0..<25 {
            let day = String(format: "2026-10-%02d", index + 1)
            ids.append(
                try #require(try client.createNote("note \(index)", date: day).note["id"] as? Int))
        }
        var seen: [Int] = []
        var cursor: String?
        var pages = 0
        repeat {
            let query = "limit=10" + (cursor.map { "&cursor=\($0)" } ?? "")
            let page = try client.send("GET", "/api/v1/notes?\(query)")
            #expect(page.status == 200)
            seen += (page.json["notes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            cursor = page.json["nextCursor"] as? String
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)
        #expect(seen == ids.reversed())
        let defaultPage = try client.send("GET", "/api/v1/notes")
        #expect((defaultPage.json["notes"] as? [Any])?.count == 25)
        #expect(defaultPage.json["nextCursor"] is NSNull)
    }

    @Test func anEmptyCursorIsTheFirstPage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        _ = try client.createNote("only")
        let page = try client.send("GET", "/api/v1/notes?cursor=&limit=5")
        #expect(page.status == 200)
        #expect((page.json["notes"] as? [Any])?.count == 1)
    }

    @Test(arguments: [
        "limit=0", "limit=201", "limit=ten", "limit=-5", "limit=", "cursor=%%%", "cursor=bm9wZQ",
    ])
    func badPageParametersAre400NamingTheParameter(query: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let response = try client.send("GET", "/api/v1/notes?\(query)")
        #expect(response.status == 400)
        let name = String(query.prefix { $0 != "=" })
        #expect(response.detail.contains("'\(name)'"))
    }

    /// Notes added and removed while a client pages never make it skip or repeat a note
    /// that was there when it started and is still there.
    @Test func pagesStayCorrectUnderConcurrentInsertsAndRemovals() async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        var original: [Int] = []
        for index in 0..<60 {
            let date = String(format: "2026-09-%02d %02d:00:00", index % 28 + 1, index % 24)
            original.append(
                try #require(try client.createNote("old \(index)", date: date).note["id"] as? Int))
        }
        let removed = Set(original.enumerated().filter { $0.offset % 7 == 3 }.map(\.element))
        let writer = Task {
            var index = 0
            for id in removed {
                _ = try client.send("DELETE", "/api/v1/notes/\(id)")
                let date = String(format: "2026-09-%02d 12:30:00", index % 28 + 1)
                _ = try client.createNote("new \(index)", date: date)
                index += 1
            }
        }
        var seen: [Int] = []
        var cursor: String?
        repeat {
            let page = try client.send(
                "GET", "/api/v1/notes?limit=4" + (cursor.map { "&cursor=\($0)" } ?? ""))
            seen += (page.json["notes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            cursor = page.json["nextCursor"] as? String
        } while cursor != nil
        try await writer.value
        #expect(Set(seen).count == seen.count, "a note was listed twice")
        let kept = Set(original).subtracting(removed)
        #expect(kept.isSubset(of: Set(seen)), "a note that stayed was skipped")
    }

    @Test(arguments: [
        ("MILK", ["Buy milk", "milkshake"]),
        ("STRASSE", ["Straße 5"]),
        ("牛奶", ["买牛奶"]),
        ("Ä", ["Ärger"]),
        ("%", ["100% done"]),
        ("_", ["snake_case"]),
    ])
    func searchIsCaseInsensitiveBeyondASCII(q: String, expected: [String]) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        for content in [
            "Buy milk", "milkshake", "Straße 5", "买牛奶", "Ärger", "arger", "100% done", "snake_case",
            "plain",
        ] {
            _ = try client.createNote(content)
        }
        let encoded = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? q
        let page = try client.send("GET", "/api/v1/notes?q=\(encoded)")
        let found = (page.json["notes"] as? [[String: Any]] ?? []).compactMap {
            $0["content"] as? String
        }
        #expect(Set(found) == Set(expected))
    }
}
