import Foundation
import MyNotesKit
import MyNotesTesting
import Testing

/// The change feed and the live stream through NotesAPIClient, against the real server
/// over real HTTP.
@Suite("Change feed and stream against the real server")
struct ChangeFeedIntegrationTests {
    static func client(
        _ server: TestServer, token: String, at url: URL? = nil, timeout: Duration = .seconds(30)
    ) -> NotesAPIClient {
        var configuration = NotesAPIClient.Configuration(
            server: url ?? server.baseURL, token: token, language: .english)
        configuration.timeout = timeout
        return NotesAPIClient(configuration)
    }

    static func account(on server: TestServer) throws -> (NotesAPIClient, String) {
        let token = try server.createAccount(email: "feed-\(UUID().uuidString)@example.com")
        return (client(server, token: token), token)
    }

    /// The notes a list of changes leaves when applied in order to `notes`.
    static func replay(_ changes: [NoteChange], onto notes: [Int: String] = [:]) -> [Int: String] {
        var notes = notes
        for change in changes { notes[change.id] = change.note?.content }
        return notes
    }

    /// Today's cursors are decimal: the order is checked through them, as no client may.
    static func positions(_ changes: [NoteChange]) -> [Int] {
        changes.compactMap { Int($0.cursor.rawValue) }
    }

    @Test("The feed lists each note's latest change in order and says where to resume")
    func feed() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, _) = try Self.account(on: server)
        let gone = try await client.create("second")
        let start = try await client.changes()
        #expect(start.changes.map(\.id) == [gone.id])
        #expect(!start.hasMore)

        // A note made and removed since a cursor leaves no tombstone for it: one made before does
        let fleeting = try await client.create("fleeting")
        try await client.delete(id: fleeting.id)
        let kept = try await client.create("first")
        let edited = try await client.update(id: kept.id, content: "first, edited")
        try await client.delete(id: gone.id)

        let page = try await client.changes(since: start.cursor)
        #expect(
            page.changes.map { "\($0.kind) \($0.id)" } == [
                "created \(kept.id)", "deleted \(gone.id)",
            ])
        #expect(page.changes[0].note?.content == "first, edited")
        #expect(page.changes[0].etag == edited.etag)
        #expect(page.changes[0].note?.etag == edited.etag)
        #expect(page.changes[1].note == nil)
        #expect(page.cursor == page.changes[1].cursor)

        // Nothing new: the same cursor back. A full listing has no tombstones.
        let again = try await client.changes(since: page.cursor)
        #expect(again.changes.isEmpty)
        #expect(again.cursor == page.cursor)
        let full = try await client.changes()
        #expect(full.changes.map { "\($0.kind) \($0.id)" } == ["created \(kept.id)"])

        // Pages: one at a time, hasMore until the last
        let first = try await client.changes(since: start.cursor, limit: 1)
        #expect(first.changes.count == 1)
        #expect(first.hasMore)
        let second = try await client.changes(since: first.cursor, limit: 1)
        #expect(second.changes.map(\.id) == [gone.id])
        #expect(!second.hasMore)
        let blocking = try client.blocking.changes(since: first.cursor)
        #expect(blocking == second)
    }

    @Test(
        "A bad limit or cursor is refused with a problem naming it", arguments: ["0", "1001", "x"])
    func badLimit(limit: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, _) = try Self.account(on: server)
        let error = await TransportFailureTests.failure { () async throws(NotesClientError) in
            _ = try await client.changes(
                since: ChangeCursor(limit == "x" ? "not-a-cursor" : "0"), limit: Int(limit))
        }
        guard case .rest(.other(let problem)) = error else {
            Issue.record("expected 400, got \(String(describing: error))")
            return
        }
        #expect(problem.status == 400)
        #expect(problem.detail.contains(limit == "x" ? "since" : "limit"))
    }

    @Test("A stream cut mid-way resumes with Last-Event-ID: no change missed, none twice")
    func resume() async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let (writer, token) = try Self.account(on: server)
        let relay = TCPRelay(to: server.port)
        defer { relay.stop() }
        let reader = Self.client(server, token: token, at: relay.url)
        let start = try await writer.changes().cursor

        let log = ChangeLog<NoteChange>()
        let stream = reader.changeStream(since: start, reconnection: .after(.milliseconds(20)))
        let watching = Task {
            for try await change in stream { log.append(change) }
        }
        defer { watching.cancel() }

        var ids: [Int] = []
        for index in 1...5 { ids.append(try await writer.create("note \(index)").id) }
        try await log.wait(for: 5)
        let beforeCut = log.all.last!.cursor

        // The connection drops; the server goes on taking writes meanwhile
        relay.cutAll()
        _ = try await writer.update(id: ids[0], content: "note 1, edited while cut off")
        try await writer.delete(id: ids[1])
        for index in 6...8 { ids.append(try await writer.create("note \(index)").id) }
        try await relay.connections.wait(for: 2)
        _ = try await writer.update(id: ids[2], content: "note 3, after the reconnection")

        // Every change arrives once, in order, and the notes they describe are the server's
        let expected = try await writer.allNotes().reduce(into: [Int: String]()) {
            $0[$1.id] = $1.content
        }
        try await log.wait(for: 11)
        let received = log.all
        #expect(received.count == 11)
        #expect(Self.positions(received) == Self.positions(received).sorted())
        #expect(Set(received.map(\.cursor)).count == received.count)
        #expect(Self.replay(received) == expected)
        // The reconnection said where it had stopped
        let heads = relay.requestHeads
        #expect(heads.count >= 2)
        #expect(heads[0].lowercased().contains("last-event-id: \(start.rawValue)"))
        #expect(heads[1].lowercased().contains("last-event-id: \(beforeCut.rawValue)"))
    }

    @Test("A stream started at the present resumes from where it started, not from later")
    func resumeFromThePresent() async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let (writer, token) = try Self.account(on: server)
        _ = try await writer.create("before the stream")
        let relay = TCPRelay(to: server.port)
        defer { relay.stop() }
        let reader = Self.client(server, token: token, at: relay.url)
        let log = ChangeLog<NoteChange>()
        let stream = reader.changeStream(reconnection: .after(.milliseconds(20)))
        let watching = Task {
            for try await change in stream { log.append(change) }
        }
        defer { watching.cancel() }

        // Cut once the server has said where the stream starts; a note is added meanwhile
        try await relay.waitForAnswer(containing: "id: ")
        relay.cutAll()
        let note = try await writer.create("while cut off")
        try await log.wait(for: 1)
        #expect(log.all.map(\.id) == [note.id])
        #expect(relay.requestHeads.count >= 2)
        #expect(!relay.requestHeads[0].lowercased().contains("last-event-id"))
        #expect(relay.requestHeads[1].lowercased().contains("last-event-id: "))
    }

    @Test("A token that does not work ends the stream with .unauthorized, not reconnections")
    func unauthorized() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var changes = Self.client(server, token: "not-a-token").changeStream(
            reconnection: .after(.milliseconds(20))
        ).makeAsyncIterator()
        let error = await TransportFailureTests.failure { () async throws(NotesClientError) in
            _ = try await changes.next()
        }
        guard case .rest(.unauthorized) = error else {
            Issue.record("expected 401, got \(String(describing: error))")
            return
        }
    }

    @Test("A connection silent past the idle timeout is taken for dead and replaced")
    func silent() async throws {
        let peer = LoopbackPeer(.silent)
        defer { peer.stop() }
        let client = NotesAPIClient(server: peer.url, token: "t")
        let stream = client.changeStream(
            reconnection: .init(delay: .milliseconds(20), idleTimeout: .seconds(1)))
        let watching = Task { for try await _ in stream {} }
        defer { watching.cancel() }
        try await peer.requests.wait(for: 2, timeout: .seconds(120))
    }

    @Test("Cancelling the loop ends it without an error and closes the connection")
    func cancel() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, token) = try Self.account(on: server)
        let relay = TCPRelay(to: server.port)
        defer { relay.stop() }
        let reader = Self.client(server, token: token, at: relay.url)
        let log = ChangeLog<NoteChange>()
        let stream = reader.changeStream(since: try await client.changes().cursor)
        let watching = Task {
            for try await change in stream { log.append(change) }
            return log.all.count
        }
        _ = try await client.create("one")
        try await log.wait(for: 1)
        #expect(relay.closed.value == 0)
        watching.cancel()
        #expect(try await watching.value == 1)
        try await relay.closed.wait(for: 1)
        #expect(relay.connections.value == 1)
    }

    @Test("Tombstones past the retention: the feed and the stream answer 410, typed")
    func expired() async throws {
        let clock = ManualClock()
        let server = try TestServer(.init(clock: clock))
        defer { server.shutdown() }
        let (client, _) = try Self.account(on: server)
        let old = try await client.changes().cursor
        let note = try await client.create("short-lived")
        try await client.delete(id: note.id)
        clock.advance(by: .seconds(31 * 86_400))

        let error = await TransportFailureTests.failure { () async throws(NotesClientError) in
            _ = try await client.changes(since: old)
        }
        guard case .rest(.cursorExpired(let problem)) = error else {
            Issue.record("expected 410, got \(String(describing: error))")
            return
        }
        #expect(problem.status == 410)
        #expect(problem.type.hasSuffix("cursor-expired"))
        #expect(error?.message(in: .english).isEmpty == false)

        var changes = client.changeStream(since: old).makeAsyncIterator()
        let streamError = await TransportFailureTests.failure { () async throws(NotesClientError) in
            _ = try await changes.next()
        }
        guard case .rest(.cursorExpired) = streamError else {
            Issue.record("expected 410 from the stream, got \(String(describing: streamError))")
            return
        }
        // From nothing is always valid: every live note (none here)
        #expect(try await client.changes().changes.isEmpty)
    }
}
