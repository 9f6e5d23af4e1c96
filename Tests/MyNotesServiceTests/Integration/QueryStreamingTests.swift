import Foundation
import MyNotesDomain
import MyNotesProtocol
import MyNotesTesting
import Testing

@testable import MyNotesService

/// A large query answer is streamed page by page, and is byte for byte the answer the
/// in-memory writer makes; a small one is still sent whole.
@Suite("Query streaming")
struct QueryStreamingTests {
    /// Notes enough for several pages and well over the streaming threshold.
    static let manyNotes = LegacyNotePages.pageSize * 3 + 17

    /// The server, its account's token, and every note of the account, newest first.
    static func server(notes count: Int) async throws -> (TestServer, String, [Note]) {
        let server = try TestServer(.init(auth: .token, backend: .sqlite))
        let token = try server.createAccount(email: "ann@example.com")
        try BulkNotes.insert(
            count, email: "ann@example.com",
            into: server.directory.appendingPathComponent("notes.sqlite").path,
            content: BulkNotes.awkward)
        let account = try #require(await server.store.account(email: "ann@example.com"))
        let notes = try await server.store.notes(account: account.id, page: NotePage(limit: .max))
        return (server, token, notes)
    }

    static func query(_ token: String, type: String, method: String = "GET") -> String {
        "\(method) /mynotes/webservice.php?email=ann%40example.com&token=\(token)"
            + "&action=query&type=\(type) HTTP/1.1\r\nHost: t\r\n\r\n"
    }

    @Test(
        "A large answer is chunked and byte-identical to the in-memory one",
        arguments: [
            WireFormat.json, .xml,
        ])
    func streamedBytesEqualTheWholeAnswer(format: WireFormat) async throws {
        let (server, token, notes) = try await Self.server(notes: Self.manyNotes)
        defer { server.shutdown() }
        #expect(notes.count == Self.manyNotes)
        let expected = LegacyResponseWriter(format: format, language: .english, quota: 0)
            .response(for: .notes(notes)).body
        #expect(expected.count > LegacyNotePages.streamingThreshold)

        let client = try RawHTTPClient(port: server.port)
        let response = try client.send(Self.query(token, type: format.rawValue))
        #expect(response.status == 200)
        #expect(response.header("Transfer-Encoding")?.lowercased() == "chunked")
        #expect(response.header("Content-Type") == format.contentType)
        #expect(response.body == expected)
        // The connection stays usable after a streamed answer.
        #expect(try client.send(Self.query(token, type: format.rawValue)).body == expected)
        if format == .json {
            let reply = try response.reply()
            #expect(reply.record?.map(\.content) == notes.map(\.content))
        }
    }

    @Test("A small answer is sent whole, with its length")
    func smallAnswerIsNotStreamed() async throws {
        let (server, token, notes) = try await Self.server(notes: 5)
        defer { server.shutdown() }
        let response = try RawHTTPClient(port: server.port).send(Self.query(token, type: "JSON"))
        #expect(response.header("Content-Length") == String(response.body.count))
        #expect(try response.reply().record?.count == notes.count)
    }

    /// A `HEAD` gets the whole answer's length, as a `GET` would, and no body: the legacy
    /// query answers a `HEAD` whole rather than streamed, which would carry no length.
    @Test("HEAD of a large query has the length of GET's answer and no body")
    func headOfLargeAnswer() async throws {
        let (server, token, _) = try await Self.server(notes: Self.manyNotes)
        defer { server.shutdown() }
        let client = try RawHTTPClient(port: server.port)
        let head = try client.send(Self.query(token, type: "XML", method: "HEAD"))
        let get = try client.send(Self.query(token, type: "XML"))
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Type") == get.header("Content-Type"))
        #expect(head.header("Content-Length") == String(get.body.count))
    }
}
