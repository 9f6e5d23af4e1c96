import Foundation
import MyNotesKit
import MyNotesTesting
import Testing

/// NotesReplica against the real server: replicas edited offline and synced, conflicts
/// that keep both versions, an expired cursor, a queue that outlives its replica.
@Suite("NotesReplica against the real server")
struct NotesReplicaIntegrationTests {
    /// A folder of its own for a test's replica files, removed by `remove()`.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mynotes-replica-\(UUID().uuidString)")

        func store(_ name: String) -> FileReplicaStore {
            FileReplicaStore(url: url.appendingPathComponent("\(name).json"))
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// What the other replica does to the note meanwhile.
    enum OtherSide: CaseIterable, Sendable {
        case edits, removes
    }

    static func contents(_ notes: [ReplicaNote]) -> [String] {
        notes.map(\.content).sorted()
    }

    @Test(
        "Two replicas change the same note offline, then sync: both versions are kept",
        arguments: OtherSide.allCases, [NotesReplica.ConflictPolicy.hold, .keepBoth])
    func twoReplicas(other: OtherSide, policy: NotesReplica.ConflictPolicy) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let folder = Folder()
        defer { folder.remove() }
        let (client, _) = try ChangeFeedIntegrationTests.account(on: server)
        let note = try await client.create("the original")
        let ann = try NotesReplica(client: client, store: folder.store("ann"))
        let bob = try NotesReplica(client: client, store: folder.store("bob"), conflicts: policy)
        try await ann.sync()
        try await bob.sync()
        #expect(await bob.notes.map(\.content) == ["the original"])

        // Both offline: Ann edits or removes the note, Bob edits it
        switch other {
        case .edits: try await ann.edit(.server(note.id), content: "Ann's version")
        case .removes: try await ann.remove(.server(note.id))
        }
        try await bob.edit(.server(note.id), content: "Bob's version")
        #expect(await bob.pendingCount == 1)

        // Ann syncs first and wins the note; Bob's push is refused (412), and kept
        #expect(try await ann.sync().pushed == 1)
        let report = try await bob.sync()
        let conflict = try #require(report.conflicts.first)
        #expect(report.conflicts.count == 1)
        #expect(conflict.noteID == note.id)
        #expect(conflict.local?.content == "Bob's version")
        switch other {
        case .edits:
            #expect(conflict.reason == .changedOnServer)
            #expect(conflict.server?.content == "Ann's version")
        case .removes:
            #expect(conflict.reason == .removedOnServer)
            #expect(conflict.server == nil)
        }
        if policy == .hold {
            #expect(await bob.conflicts == [conflict])
            // Held across a restart of the replica
            let reopened = try NotesReplica(client: client, store: folder.store("bob"))
            #expect(await reopened.conflicts == [conflict])
            try await bob.resolve(conflict.id, keeping: .both)
            try await bob.sync()
        }

        // Nothing is lost: the server and both replicas hold both versions
        let expected = other == .edits ? ["Ann's version", "Bob's version"] : ["Bob's version"]
        #expect(try await client.allNotes().map(\.content).sorted() == expected)
        #expect(Self.contents(await bob.notes) == expected)
        try await ann.sync()
        #expect(Self.contents(await ann.notes) == expected)
        #expect(await bob.conflicts.isEmpty)
        #expect(await bob.pendingCount == 0)
    }

    @Test("Queued changes outlive their replica: a new one over the same file pushes them")
    func queueSurvivesRestart() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let folder = Folder()
        defer { folder.remove() }
        let (client, token) = try ChangeFeedIntegrationTests.account(on: server)
        let kept = try await client.create("to edit")
        let doomed = try await client.create("to remove")
        try await NotesReplica(client: client, store: folder.store("copy")).sync()

        // Offline for real: the client of this run reaches nothing
        let closed = ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let unreachable = ChangeFeedIntegrationTests.client(server, token: token, at: closed.url)
        do {
            let offline = try NotesReplica(client: unreachable, store: folder.store("copy"))
            let added = try await offline.add("written on a plane")
            try await offline.edit(added.id, content: "written on a plane, then edited")
            try await offline.edit(.server(kept.id), content: "edited on a plane")
            try await offline.remove(.server(doomed.id))
            await #expect(throws: ReplicaError.self) { try await offline.sync() }
            #expect(await offline.pendingCount == 3)
        }

        // Another run, another replica over the same file, online
        let replica = try NotesReplica(client: client, store: folder.store("copy"))
        #expect(await replica.pendingCount == 3)
        #expect(
            Self.contents(await replica.notes) == [
                "edited on a plane", "written on a plane, then edited",
            ])
        let report = try await replica.sync()
        #expect(report.pushed == 3)
        #expect(report.conflicts.isEmpty)
        #expect(
            try await client.allNotes().map(\.content).sorted() == [
                "edited on a plane", "written on a plane, then edited",
            ])
        #expect(await replica.notes.allSatisfy { !$0.isPending && $0.id.serverID != nil })
    }

    @Test("An add whose answer is lost is not added twice by the next sync")
    func lostAnswer() async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let folder = Folder()
        defer { folder.remove() }
        let (client, token) = try ChangeFeedIntegrationTests.account(on: server)
        let relay = TCPRelay(to: server.port)
        defer { relay.stop() }
        // A lost answer ends in a broken connection or a timeout, as the network decides.
        let throughRelay = ChangeFeedIntegrationTests.client(
            server, token: token, at: relay.url, timeout: .seconds(2))
        let replica = try NotesReplica(client: throughRelay, store: folder.store("copy"))
        try await replica.sync()
        try await replica.add("sent once", date: NoteDate("2026-12-01"))

        // The server creates the note; its answer never arrives
        relay.swallowAnswersToPosts(true)
        await #expect(throws: ReplicaError.self) { try await replica.sync() }
        #expect(try await client.allNotes().map(\.content) == ["sent once"])
        #expect(await replica.pendingCount == 1)

        // The next sync finds it on the server instead of adding it again
        relay.swallowAnswersToPosts(false)
        let report = try await replica.sync()
        #expect(report.pushed == 1)
        #expect(try await client.allNotes().map(\.content) == ["sent once"])
        #expect(await replica.notes.map(\.content) == ["sent once"])
        #expect(await replica.notes.allSatisfy { $0.id.serverID != nil && !$0.isPending })
    }

    @Test("An expired cursor: a full resync that keeps the changes not pushed yet")
    func expiredCursor() async throws {
        let clock = ManualClock()
        let server = try TestServer(.init(clock: clock))
        defer { server.shutdown() }
        let folder = Folder()
        defer { folder.remove() }
        let (client, _) = try ChangeFeedIntegrationTests.account(on: server)
        let stays = try await client.create("stays")
        let goes = try await client.create("goes")
        let replica = try NotesReplica(client: client, store: folder.store("copy"))
        try await replica.sync()
        let events = ChangeLog<ReplicaEvent>()
        let listening = Task { for await event in await replica.events() { events.append(event) } }
        defer { listening.cancel() }

        // Elsewhere a note is removed; its tombstone outlives the retention
        try await client.delete(id: goes.id)
        _ = try await client.update(id: stays.id, content: "stays, edited elsewhere")
        clock.advance(by: .seconds(31 * 86_400))
        // Here, offline changes wait
        try await replica.add("added here")

        let report = try await replica.sync()
        #expect(report.reloaded)
        #expect(report.pushed == 1)
        #expect(
            Self.contents(await replica.notes) == ["added here", "stays, edited elsewhere"])
        #expect(
            try await client.allNotes().map(\.content).sorted() == [
                "added here", "stays, edited elsewhere",
            ])
        try await events.wait(for: 2)
        #expect(events.all.contains(.reloaded))
    }

    @Test("follow() keeps a replica live: another client's change arrives as an event")
    func follow() async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let folder = Folder()
        defer { folder.remove() }
        let (client, _) = try ChangeFeedIntegrationTests.account(on: server)
        let replica = try NotesReplica(client: client, store: folder.store("copy"))
        let events = ChangeLog<ReplicaEvent>()
        let listening = Task { for await event in await replica.events() { events.append(event) } }
        defer { listening.cancel() }
        let live = Task { try await replica.follow(reconnection: .after(.milliseconds(20))) }
        defer { live.cancel() }
        // Whether it lands before follow()'s first sync or after, the change arrives once
        let note = try await client.create("from another device")
        try await events.wait(for: 1)
        let shown = ReplicaNote(
            id: .server(note.id), date: note.date, content: note.content, isPending: false)
        #expect(events.all.contains(.changed(shown)))
        #expect(await replica.note(.server(note.id)) == shown)
        live.cancel()
        try await live.value
    }
}
