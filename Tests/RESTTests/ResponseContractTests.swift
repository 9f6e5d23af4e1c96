import Foundation
import MyNotesAPI
import MyNotesDomain
import MyNotesTesting
import Testing

@testable import MyNotesService

/// The server writes its answers by hand (``JSONObjectWriter``: a page of 200 notes is
/// written once, straight into bytes). Each kind of answer is read back here with
/// `JSONDecoder` into its MyNotesAPI type, which must hold every member with its JSON
/// type and write the very same JSON again: a member the writer adds, drops, renames or
/// types otherwise than the type fails, so the writer and the type cannot drift apart.
@Suite struct ResponseContractTests {
    /// `bytes` as `T`, after checking that `T` writes the same JSON (members, values,
    /// `null`s) back.
    @discardableResult
    static func roundTrip<T: Codable>(
        _ bytes: [UInt8], as type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> T {
        let value = try JSONDecoder().decode(T.self, from: Data(bytes))
        #expect(
            try canonical(Data(bytes)) == canonical(JSONEncoder().encode(value)),
            "\(T.self): \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        return value
    }

    /// JSON with sorted keys, so that two texts of the same value compare equal.
    static func canonical(_ data: Data) throws -> Data {
        try JSONSerialization.data(
            withJSONObject: JSONSerialization.jsonObject(with: data), options: [.sortedKeys])
    }

    static let note = MyNotesDomain.Note(
        id: 12, date: "2026-11-29 08:30:00", content: "牛奶 \"quoted\"\n\t\u{1}😀 </script>",
        createdAt: 1_795_940_130_250, updatedAt: 1_795_942_800_000, version: 3)

    static func api(_ note: MyNotesDomain.Note, snippet: String? = nil) -> APINote {
        APINote(
            id: note.id, date: note.date.description, content: note.content,
            createdAt: RFC3339.string(milliseconds: note.createdAt),
            updatedAt: RFC3339.string(milliseconds: note.updatedAt), snippet: snippet)
    }

    @Test func aNoteAndAChangeAreTheirTypesValues() throws {
        #expect(try Self.roundTrip(Self.note.json, as: APINote.self) == Self.api(Self.note))
        for kind in [FeedChange.Kind.created, .updated] {
            let change = FeedChange(
                sequence: 17, kind: kind, noteID: 12, version: 3, note: Self.note)
            #expect(
                try Self.roundTrip(change.json, as: APIChange.self)
                    == APIChange(
                        cursor: "17", type: kind.rawValue, id: 12, version: 3,
                        note: Self.api(Self.note)))
        }
        let deleted = FeedChange(sequence: 18, kind: .deleted, noteID: 12, version: 4, note: nil)
        #expect(
            try Self.roundTrip(deleted.json, as: APIChange.self)
                == APIChange(cursor: "18", type: "deleted", id: 12, version: 4, note: nil))
        #expect(String(decoding: deleted.json, as: UTF8.self).hasSuffix(#""note":null}"#))
    }

    @Test func problemsAreTheirTypesValues() throws {
        let notFound = RESTProblem.noSuchNote.response(language: .english)
        #expect(
            try Self.roundTrip(notFound.body, as: APIProblem.self)
                == APIProblem(
                    type: "about:blank", title: "Not Found", status: 404, code: -7,
                    detail: "No such note."))
        var conflict = RESTProblem(.preconditionFailed, .preconditionFailed)
        conflict.currentVersion = 5
        let written = try Self.roundTrip(
            conflict.response(language: .chinese).body, as: APIProblem.self)
        #expect(written.currentVersion == 5)
        #expect(written.status == 412)
    }

    /// Every answer of the live server with a JSON body, each kind at least once.
    @Test func theLiveServersAnswersAreTheirTypesValues() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let anonymous = RESTClient(server)
        let signUp = try anonymous.send(
            "POST", "/api/v1/accounts",
            json: ["email": "ann@example.com", "password": "password 123"])
        let account = try Self.roundTrip(signUp.body, as: APIAccountCreated.self)
        #expect(account.email == "ann@example.com")
        let ann = anonymous.with(token: account.token)
        let signIn = try anonymous.send(
            "POST", "/api/v1/sessions",
            json: ["email": "ann@example.com", "password": "password 123"])
        try Self.roundTrip(signIn.body, as: APISessionToken.self)

        let created = try ann.send(
            "POST", "/api/v1/notes", json: ["content": "buy milk and bread", "date": "2026-11-29"])
        let note = try Self.roundTrip(created.body, as: APINote.self)
        #expect(note.snippet == nil)
        try Self.roundTrip(
            try ann.send("GET", "/api/v1/notes/\(note.id)").body, as: APINote.self)
        try Self.roundTrip(
            try ann.send("PATCH", "/api/v1/notes/\(note.id)", json: ["content": "buy milk"]).body,
            as: APINote.self)
        try Self.roundTrip(
            try ann.send(
                "PUT", "/api/v1/notes/\(note.id)",
                json: ["content": "buy milk, eggs", "date": "2026-11-30 08:00"]
            ).body, as: APINote.self)
        for index in 0..<3 { _ = try ann.createNote("note \(index) with milk") }
        let first = try Self.roundTrip(
            try ann.send("GET", "/api/v1/notes?limit=2").body, as: APINotePage.self)
        #expect(first.nextCursor != nil)
        let last = try Self.roundTrip(
            try ann.send("GET", "/api/v1/notes?limit=200").body, as: APINotePage.self)
        #expect(last.nextCursor == nil)
        let search = try Self.roundTrip(
            try ann.send("GET", "/api/v1/notes?q=milk&snippet=true").body, as: APINotePage.self)
        #expect(!search.notes.isEmpty && search.notes.allSatisfy { $0.snippet != nil })
        // A feed read from a cursor after the notes were made has updates and deletions.
        let start = try Self.roundTrip(
            try ann.send("GET", "/api/v1/changes").body, as: APIChangePage.self)
        #expect(start.changes.contains { $0.type == "created" })
        _ = try ann.send("PATCH", "/api/v1/notes/\(note.id)", json: ["content": "milk"])
        let other = try #require(search.notes.first { $0.id != note.id })
        _ = try ann.send("DELETE", "/api/v1/notes/\(other.id)")
        let changes = try Self.roundTrip(
            try ann.send("GET", "/api/v1/changes?since=\(start.cursor)").body,
            as: APIChangePage.self)
        #expect(Set(changes.changes.map(\.type)) == ["updated", "deleted"])
        try Self.roundTrip(
            try ann.send("GET", "/api/v1/changes?limit=1").body, as: APIChangePage.self)

        let sessions = try Self.roundTrip(
            try ann.send("GET", "/api/v1/sessions").body, as: APISessionList.self)
        #expect(sessions.sessions.count == 2)
        let key = try server.createAccount(email: "ops@example.com")
        let keys = try Self.roundTrip(
            try anonymous.with(token: key).send("GET", "/api/v1/sessions").body,
            as: APISessionList.self)
        #expect(keys.sessions.first?.expiresAt == nil)
        try Self.roundTrip(
            try ann.send("DELETE", "/api/v1/sessions").body, as: APIRevoked.self)

        for problem in [
            try ann.send("GET", "/api/v1/notes/999"),
            try ann.send("POST", "/api/v1/notes", json: ["content": 42]),
            try anonymous.send("GET", "/api/v1/notes"),
        ] {
            #expect(problem.isProblem)
            try Self.roundTrip(problem.body, as: APIProblem.self)
        }
    }
}
