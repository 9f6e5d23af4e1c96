import Foundation
import MyNotesTesting
import Testing

/// `If-Match` as RFC 9110 §13.1.1 defines it, through real HTTP: `*` matches any current
/// note and fails when there is none; a list of tags must name the current version; no
/// `If-Match` is no precondition at all, whatever other writers do meanwhile.
@Suite("Conditional writes")
struct ConditionalWriteTests {
    static let writes = ["PUT", "PATCH", "DELETE"]

    static func body(for method: String) -> [String: String]? {
        method == "DELETE" ? nil : ["content": "changed", "date": "2026-12-01"]
    }

    static func success(for method: String) -> Int { method == "DELETE" ? 204 : 200 }

    @Test("If-Match: * writes a note that exists, whatever its version", arguments: writes)
    func starMatchesAnyCurrentNote(method: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, _) = try client.createNote("v1")
        let id = try #require(note["id"] as? Int)
        try client.send("PATCH", "/api/v1/notes/\(id)", json: ["content": "v2"])
        let response = try client.send(
            method, "/api/v1/notes/\(id)", json: Self.body(for: method),
            headers: ["If-Match": "*"])
        #expect(response.status == Self.success(for: method))
        if method != "DELETE" {
            #expect(response.header("ETag") == "\"\(id).3\"")
            #expect(response.json["content"] as? String == "changed")
        }
    }

    @Test("If-Match: * on a note that does not exist is 412, and writes nothing", arguments: writes)
    func starFailsWithoutANote(method: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, _) = try client.createNote("doomed")
        let id = try #require(note["id"] as? Int)
        #expect(try client.send("DELETE", "/api/v1/notes/\(id)").status == 204)
        let response = try client.send(
            method, "/api/v1/notes/\(id)", json: Self.body(for: method),
            headers: ["If-Match": "*"])
        #expect(response.status == 412)
        #expect(response.isProblem)
        #expect(response.problemCode == 412)
        #expect(response.header("ETag") == nil)
        #expect(response.json["currentVersion"] == nil)
        #expect(try client.send("GET", "/api/v1/notes/\(id)").status == 404)
    }

    @Test(
        "A stale tag is 412 carrying the current version, as ETag and in the body",
        arguments: writes)
    func staleTagCarriesTheCurrentVersion(method: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, stale) = try client.createNote("v1", date: "2026-11-29")
        let id = try #require(note["id"] as? Int)
        try client.send("PATCH", "/api/v1/notes/\(id)", json: ["content": "v2"])
        try client.send("PATCH", "/api/v1/notes/\(id)", json: ["content": "v3"])
        let response = try client.send(
            method, "/api/v1/notes/\(id)", json: Self.body(for: method),
            headers: ["If-Match": stale])
        #expect(response.status == 412)
        #expect(response.isProblem)
        #expect(response.header("ETag") == "\"\(id).3\"")
        #expect(response.json["currentVersion"] as? Int == 3)
        let unchanged = try client.send("GET", "/api/v1/notes/\(id)")
        #expect(unchanged.json["content"] as? String == "v3")
        #expect(unchanged.header("ETag") == "\"\(id).3\"")
        // The tag the 412 handed back is the one that now goes through.
        let retried = try client.send(
            method, "/api/v1/notes/\(id)", json: Self.body(for: method),
            headers: ["If-Match": try #require(response.header("ETag"))])
        #expect(retried.status == Self.success(for: method))
    }

    /// Without If-Match a write has no precondition: many writers racing on one note all
    /// succeed, and each one's change is counted in the version.
    @Test("Racing writes without If-Match all succeed", arguments: ["PUT", "PATCH"])
    func racingWritesWithoutIfMatchNeverFail(method: String) async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, _) = try client.createNote("base", date: "2026-11-29")
        let id = try #require(note["id"] as? Int)
        let writers = 24
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<writers {
                group.addTask {
                    try client.send(
                        method, "/api/v1/notes/\(id)",
                        json: ["content": "edit \(index)", "date": "2026-11-29"]
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: writers))
        let final = try client.send("GET", "/api/v1/notes/\(id)")
        #expect(final.header("ETag") == "\"\(id).\(1 + writers)\"")
    }

    /// A PATCH merges into the note as it is when its write runs, not as some earlier
    /// read saw it: patches of different fields, racing, lose nothing.
    @Test func racingPatchesOfDifferentFieldsBothLand() async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        for round in 0..<8 {
            let (note, _) = try client.createNote("old \(round)", date: "2026-11-29")
            let id = try #require(note["id"] as? Int)
            async let content = client.send(
                "PATCH", "/api/v1/notes/\(id)", json: ["content": "new \(round)"])
            async let date = client.send(
                "PATCH", "/api/v1/notes/\(id)", json: ["date": "2027-01-0\(round + 1)"])
            #expect(try await content.status == 200)
            #expect(try await date.status == 200)
            let merged = try client.send("GET", "/api/v1/notes/\(id)").json
            #expect(merged["content"] as? String == "new \(round)")
            #expect(merged["date"] as? String == "2027-01-0\(round + 1)")
        }
    }

    @Test("A tag of a note that is not there is 404, as without If-Match", arguments: writes)
    func tagOfAMissingNoteIsNotFound(method: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, etag) = try client.createNote("gone")
        let id = try #require(note["id"] as? Int)
        #expect(try client.send("DELETE", "/api/v1/notes/\(id)").status == 204)
        let response = try client.send(
            method, "/api/v1/notes/\(id)", json: Self.body(for: method),
            headers: ["If-Match": etag])
        #expect(response.status == 404)
        #expect(response.problemCode == -7)
    }
}
