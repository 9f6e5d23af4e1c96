import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Testing

/// `GET /api/v1/changes` as a client sees it: writes from both APIs in order,
/// with their types and versions and the notes as `GET /api/v1/notes/{id}` answers them,
/// paging by cursor, bad parameters, accounts kept apart, and expired cursors.
@Suite struct ChangeFeedTests {
    /// The changes after `since`, checking the answer's shape.
    static func changes(
        _ client: RESTClient, since: String? = nil, limit: Int? = nil
    ) throws -> (changes: [[String: Any]], cursor: String, hasMore: Bool) {
        var query: [String] = []
        if let since { query.append("since=\(since)") }
        if let limit { query.append("limit=\(limit)") }
        let path = "/api/v1/changes" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let response = try client.send("GET", path)
        guard response.status == 200, let changes = response.json["changes"] as? [[String: Any]],
            let cursor = response.json["cursor"] as? String,
            let hasMore = response.json["hasMore"] as? Bool
        else { throw RESTClient.Unexpected(response) }
        return (changes, cursor, hasMore)
    }

    /// A legacy write (`add`, `modify`, `remove`) with the account's token, as an old app
    /// sends it.
    static func legacy(_ client: RESTClient, _ email: String, _ token: String, _ query: String)
        throws
    {
        let response = try client.with(token: nil).send(
            "GET", "/mynotes/webservice.php?email=\(email)&token=\(token)&\(query)")
        #expect(response.status == 200, "\(query): \(response.text)")
    }

    @Test func writesFromBothAPIsAppearInOrderWithTheirTypesAndVersions() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let token = try server.createAccount(email: "ann@example.com")
        let client = RESTClient(server, token: token)
        let start = try Self.changes(client)
        #expect(start.changes.isEmpty && !start.hasMore)

        let rest = try client.createNote("from REST", date: "2026-11-29").note
        try Self.legacy(
            client, "ann@example.com", token, "action=add&date=2026-11-30&content=legacy")
        let created = try Self.changes(client, since: start.cursor)
        #expect(created.changes.map { $0["type"] as? String } == ["created", "created"])
        #expect(created.changes.map { $0["version"] as? Int } == [1, 1])
        #expect(created.changes[0]["id"] as? Int == rest["id"] as? Int)
        let legacyID = try #require(created.changes[1]["id"] as? Int)
        #expect((created.changes[1]["note"] as? [String: Any])?["content"] as? String == "legacy")
        let cursors = created.changes.compactMap { $0["cursor"] as? String }.compactMap { Int($0) }
        #expect(cursors.count == 2 && cursors[0] < cursors[1])

        // Changed through the other API each, then one removed (legacy).
        let restID = try #require(rest["id"] as? Int)
        try Self.legacy(
            client, "ann@example.com", token,
            "action=modify&id=\(restID)&date=2026-11-29&content=changed%20by%20legacy")
        let patched = try client.send(
            "PATCH", "/api/v1/notes/\(legacyID)", json: ["content": "changed by REST"])
        #expect(patched.status == 200)
        try Self.legacy(client, "ann@example.com", token, "action=remove&id=\(legacyID)")
        let later = try Self.changes(client, since: created.cursor)
        #expect(later.changes.map { $0["type"] as? String } == ["updated", "deleted"])
        #expect(later.changes.map { $0["id"] as? Int } == [restID, legacyID])
        #expect(later.changes.map { $0["version"] as? Int } == [2, 2])
        #expect(later.changes[1]["note"] is NSNull)
        // The note exactly as GET /api/v1/notes/{id} answers it, and its version the ETag's.
        let read = try client.send("GET", "/api/v1/notes/\(restID)")
        let listed = try #require(later.changes[0]["note"] as? [String: Any])
        #expect(NSDictionary(dictionary: listed).isEqual(to: read.json))
        #expect(read.header("ETag") == "\"\(restID).2\"")
        // Nothing new: the cursor stays, and a full sync lists the live note alone.
        #expect(try Self.changes(client, since: later.cursor).changes.isEmpty)
        #expect(try Self.changes(client, since: later.cursor).cursor == later.cursor)
        let full = try Self.changes(client)
        #expect(full.changes.map { $0["type"] as? String } == ["created"])
        #expect(full.changes.map { $0["id"] as? Int } == [restID])
        #expect(full.cursor == later.cursor)
    }

    @Test func pagesFollowTheCursorAndBadParametersAreRefused() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        for index in 1...5 { _ = try client.createNote("note \(index)") }
        var cursor: String? = nil
        var seen: [Int] = []
        var pages: [Bool] = []
        repeat {
            let page = try Self.changes(client, since: cursor, limit: 2)
            seen += page.changes.compactMap { $0["id"] as? Int }
            pages.append(page.hasMore)
            cursor = page.cursor
        } while pages.last == true
        #expect(seen.count == 5 && Set(seen).count == 5)
        #expect(pages == [true, true, false])
        for (query, field) in [
            ("since=abc", "since"), ("since=-1", "since"), ("since=1234567890123456789", "since"),
            ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=x", "limit"),
        ] {
            let response = try client.send("GET", "/api/v1/changes?\(query)")
            #expect(response.status == 400, "\(query)")
            #expect(response.isProblem && response.detail.contains("'\(field)'"), "\(query)")
        }
        // A cursor from the future (another database's) is expired, not an empty page.
        let future = try client.send("GET", "/api/v1/changes?since=99")
        #expect(future.status == 410)
    }

    @Test func oneAccountNeverSeesAnothersChanges() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let anonymous = RESTClient(server)
        let ann = try anonymous.signUp("ann@example.com")
        let bob = try anonymous.signUp("bob@example.com")
        let note = try ann.createNote("Ann's").note
        _ = try bob.createNote("Bob's")
        let annChanges = try Self.changes(ann).changes
        let bobChanges = try Self.changes(bob).changes
        #expect(annChanges.map { $0["id"] as? Int } == [note["id"] as? Int])
        #expect(bobChanges.count == 1 && bobChanges[0]["id"] as? Int != note["id"] as? Int)
        #expect(try anonymous.send("GET", "/api/v1/changes").status == 401)
        #expect(
            try anonymous.with(token: "not-a-token").send("GET", "/api/v1/changes").status == 401)
    }

    @Test func aCursorOlderThanTheRetentionAnswers410AndAFullSyncStillWorks() throws {
        let clock = ManualClock()
        var options = TestServer.Options(clock: clock)
        options.changeFeed.retention = .seconds(86_400)
        let server = try TestServer(options)
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let kept = try client.createNote("kept").note
        let removed = try client.createNote("removed").note
        let before = try Self.changes(client).cursor
        #expect(
            try client.send("DELETE", "/api/v1/notes/\(removed["id"] as? Int ?? 0)").status == 204)
        // Within the retention the tombstone is there for a client at `before`.
        #expect(
            try Self.changes(client, since: before).changes.map { $0["type"] as? String } == [
                "deleted"
            ])
        clock.advance(by: .seconds(2 * 86_400))
        let expired = try client.send("GET", "/api/v1/changes?since=\(before)")
        #expect(expired.status == 410)
        #expect(expired.isProblem)
        #expect((expired.json["type"] as? String)?.hasSuffix("cursor-expired") == true)
        // The resync: from nothing, the live notes.
        let full = try Self.changes(client)
        #expect(full.changes.map { $0["id"] as? Int } == [kept["id"] as? Int])
        #expect(try Self.changes(client, since: full.cursor).changes.isEmpty)
    }
}
