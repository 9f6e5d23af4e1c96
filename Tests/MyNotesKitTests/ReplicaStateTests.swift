import Foundation
import Testing

@testable import MyNotesKit

/// The replica's queue and conflict rules on their own, without a server: what a local
/// change queues, how later changes merge into it, and how a conflict keeps both sides.
@Suite("Replica state rules")
struct ReplicaStateTests {
    static let date = NoteDate("2026-12-01 09:00")

    /// A state whose server copy holds note 5 at version 2.
    static func synced() -> ReplicaState {
        var state = ReplicaState()
        state.apply(
            NoteChange(
                kind: .created, id: 5, version: 2,
                note: VersionedNote(
                    note: Note(id: 5, date: date, content: "server"), createdAt: .now,
                    updatedAt: .now, etag: "\"5.2\""),
                cursor: ChangeCursor("10")))
        return state
    }

    static func versioned(_ id: Int, _ content: String, version: Int) -> VersionedNote {
        VersionedNote(
            note: Note(id: id, date: date, content: content), createdAt: .now, updatedAt: .now,
            etag: NoteChange.etag(id: id, version: version))
    }

    @Test("Edits of a note added here fold into its add; removing it leaves nothing queued")
    func localNote() throws {
        var state = ReplicaState()
        let id = state.add(date: Self.date, content: "one")
        try state.edit(id, date: nil, content: "two", inFlight: nil)
        #expect(state.pending.count == 1)
        #expect(state.pending[0].action == .add)
        #expect(state.note(id)?.content == "two")
        #expect(state.note(id)?.isPending == true)
        try state.remove(id, inFlight: nil)
        #expect(state.pending.isEmpty)
        #expect(state.notes.isEmpty)
    }

    @Test("Edits of a server note queue once, on the version they were made on")
    func serverNote() throws {
        var state = Self.synced()
        try state.edit(.server(5), date: nil, content: "mine", inFlight: nil)
        try state.edit(.server(5), date: Self.date, content: "mine, again", inFlight: nil)
        #expect(state.pending.count == 1)
        #expect(state.pending[0].baseETag == "\"5.2\"")
        #expect(state.notes.map(\.content) == ["mine, again"])
        try state.remove(.server(5), inFlight: nil)
        #expect(state.pending.map(\.action) == [.remove])
        #expect(state.pending[0].baseETag == "\"5.2\"")
        #expect(state.notes.isEmpty)
        #expect(throws: ReplicaError.self) {
            try state.edit(.server(5), date: nil, content: "gone", inFlight: nil)
        }
    }

    @Test("A change made while the note's previous one is pushed queues after it")
    func inFlight() throws {
        var state = ReplicaState()
        let id = state.add(date: Self.date, content: "one")
        let sending = state.pending[0]
        try state.edit(id, date: nil, content: "two", inFlight: sending.number)
        #expect(state.pending.count == 2)
        #expect(state.pending[0].content == "one")

        // When the add comes back, the edit builds on the note the server made
        state.pushed(sending, as: Self.versioned(40, "one", version: 1))
        #expect(state.pending.count == 1)
        #expect(state.pending[0].target == .server(40))
        #expect(state.pending[0].baseETag == "\"40.1\"")
        #expect(state.note(.server(40))?.content == "two")
        #expect(state.note(id) == nil)
    }

    @Test(
        "A conflict keeps both versions until resolved",
        arguments: ReplicaConflict.Resolution.allCases)
    func conflict(resolution: ReplicaConflict.Resolution) throws {
        var state = Self.synced()
        try state.edit(.server(5), date: nil, content: "mine", inFlight: nil)
        let held = state.hold(
            state.pending[0], server: Self.versioned(5, "theirs", version: 3),
            reason: .changedOnServer)
        let conflict = try #require(held)
        #expect(conflict.local?.content == "mine")
        #expect(conflict.server?.content == "theirs")
        #expect(conflict.reason == .changedOnServer)
        #expect(state.pending.isEmpty)
        #expect(state.notes.map(\.content) == ["theirs"])

        // Kept across a save and a load
        state = try ReplicaState.decode(state.encoded())
        #expect(state.publicConflicts == [conflict])

        try state.resolve(conflict.id, keeping: resolution)
        #expect(state.conflicts.isEmpty)
        switch resolution {
        case .server:
            #expect(state.pending.isEmpty)
        case .local:
            #expect(state.pending.map(\.action) == [.edit])
            #expect(state.pending[0].baseETag == "\"5.3\"")
            #expect(state.notes.map(\.content) == ["mine"])
        case .both:
            #expect(state.pending.map(\.action) == [.add])
            #expect(Set(state.notes.map(\.content)) == ["mine", "theirs"])
        }
    }

    @Test("A removal refused because the note changed keeps the note")
    func removalConflict() throws {
        var state = Self.synced()
        try state.remove(.server(5), inFlight: nil)
        let held = state.hold(
            state.pending[0], server: Self.versioned(5, "theirs", version: 3),
            reason: .changedOnServer)
        let conflict = try #require(held)
        #expect(conflict.local == nil)
        try state.resolve(conflict.id, keeping: .both)
        #expect(state.pending.isEmpty)
        #expect(state.notes.map(\.content) == ["theirs"])
    }

    @Test("A document that is not a replica's state is refused, not taken for an empty one")
    func unreadable() {
        for text in ["", "[]", #"{"format": 99}"#, #"{"format": 1, "server": 3}"#] {
            #expect(throws: ReplicaError.self) { try ReplicaState.decode(Data(text.utf8)) }
        }
    }
}
