import Foundation
import MyNotesKit
import MyNotesProtocol
import MyNotesTesting
import Testing

/// The SDK against the real server over real HTTP, in every style, method and format.
@Suite("NotesClient against the real server")
struct NotesClientIntegrationTests {
    static let server = try! TestServer(.init(auth: .token))
    static let combinations: [(CallingStyle, RequestMethod, WireFormat)] = CallingStyle.allCases
        .flatMap {
            style in
            RequestMethod.allCases.flatMap { method in
                WireFormat.allCases.map { (style, method, $0) }
            }
        }

    /// Text that broke the seed app, and text that XML and JSON must carry unchanged.
    static let hardContent =
        "salt & pepper = 1+1, 100%41 #tag ?q=1\r\nline 2\t日本語 笔记 😀👩‍👩‍👧 e\u{301} <b>]]></b> \"quoted\" 'single' \\"

    /// How long a request may take before the test calls the server hung. Not a speed
    /// check: under AddressSanitizer the suite's 48 cases start together once the
    /// cooperative pool frees up, alongside hundreds of other tests, and a CI run on
    /// 2026-12-06 saw every one of them time out at 10 s.
    static let hangBound: Duration = .seconds(60)

    static func client(
        method: RequestMethod, wire: WireFormat, email: String? = nil
    ) throws -> NotesClient {
        let email = email ?? "user-\(UUID().uuidString)@example.com"
        let token = try server.createAccount(email: email)
        var configuration = NotesClient.Configuration(
            server: server.baseURL, credentials: .token(email: email, token: token),
            language: .english)
        configuration.method = method
        configuration.wire = wire
        configuration.timeout = Self.hangBound
        return NotesClient(configuration)
    }

    @Test("add, query, modify, remove round-trip any text", arguments: combinations)
    func lifecycle(style: CallingStyle, method: RequestMethod, wire: WireFormat) async throws {
        // Given a new account
        let client = try Self.client(method: method, wire: wire)
        #expect(try await style.query(client) == [])

        // When notes are added
        let first = try await style.add(
            client, Self.hardContent, date: NoteDate("2026-11-29 08:30"))
        let second = try await style.add(client, "second & last", date: NoteDate("2026-11-30"))

        // Then the query returns them exactly, newest first
        #expect(first.date.description == "2026-11-29 08:30:00")
        #expect(try await style.query(client) == [second, first])

        // When one is modified and the other removed
        try await style.modify(
            client, id: first.id, content: "+%26&=", date: NoteDate("2027-01-01"))
        try await style.remove(client, id: second.id)

        // Then
        let notes = try await style.query(client)
        #expect(notes == [Note(id: first.id, date: NoteDate("2027-01-01"), content: "+%26&=")])
    }

    @Test("Failures carry the server's ResultCode", arguments: combinations)
    func failures(style: CallingStyle, method: RequestMethod, wire: WireFormat) async throws {
        let client = try Self.client(method: method, wire: wire)
        await #expect(throws: NotesClientError.self) { try await style.remove(client, id: 987_654) }
        do {
            try await style.remove(client, id: 987_654)
        } catch {
            #expect(error.resultCode == .noSuchNote)
            #expect(error.message(in: .chinese) == "没有数据。")
            #expect(error.message(in: .english) == "No such note.")
        }
    }

    @Test("A server whose store fails answers -3, and the error says so", arguments: combinations)
    func dataAccessFailed(
        style: CallingStyle, method: RequestMethod, wire: WireFormat
    ) async throws {
        // Given a server whose database fails on every read and write of notes
        let broken = try TestServer(.init(auth: .token, failing: [.notes]))
        defer { broken.shutdown() }
        let token = try broken.createAccount(email: "ann@example.com")
        var configuration = NotesClient.Configuration(
            server: broken.baseURL, credentials: .token(email: "ann@example.com", token: token),
            language: .english)
        configuration.method = method
        configuration.wire = wire
        configuration.timeout = Self.hangBound
        configuration.retry = .never
        let client = NotesClient(configuration)
        // When a note is added, Then the failure is the server's -3, in words
        do {
            _ = try await style.add(client, "lost?", date: NoteDate("2026-11-29"))
            Issue.record("the add succeeded on a failing store")
        } catch {
            #expect(error.resultCode == .dataAccessFailed)
            #expect(error.message(in: .chinese) == "数据访问失败。")
        }
    }

    @Test("A note of 65,536 bytes goes by POST in both formats", arguments: WireFormat.allCases)
    func largestNote(wire: WireFormat) async throws {
        let client = try Self.client(method: .post, wire: wire)
        let content = String(repeating: "笔&", count: 65_536 / 4)
        #expect(content.utf8.count == 65_536)
        let note = try await client.add(content, date: NoteDate("2026-11-29"))
        #expect(try await client.query() == [note])
    }
}
