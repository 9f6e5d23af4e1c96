import Foundation
import MyNotesDomain
import MyNotesTesting
import Synchronization
import Testing

/// The change feed, against each backend: every write numbers its account's
/// changes in order, the feed keeps one row per note, tombstones expire into a 410, and
/// observers hear of commits (on PostgreSQL, of another store's commits too).
@Suite struct ChangeFeedStoreTests {
    /// The page after `cursor`, failing the test on an expired cursor.
    static func page(
        _ store: any NoteStore, _ account: Int64, after cursor: Int64?, limit: Int = 100
    ) async throws -> FeedPage {
        guard
            case .page(let page) = try await store.changes(
                account: account, after: cursor, limit: limit)
        else {
            Issue.record("cursor \(String(describing: cursor)) read as expired")
            return FeedPage(changes: [], cursor: -1, hasMore: false)
        }
        return page
    }

    @Test(arguments: StoreBackend.all)
    func everyWriteTakesTheNextSequenceAndTheFeedKeepsEachNotesLatest(
        backend: StoreBackend
    ) async throws {
        try await TemporaryStore.withNew(backend) { store in
            let (ann, bob) = try await store.annAndBob()
            #expect(try await store.changePosition(account: ann) == 0)
            let empty = try await Self.page(store, ann, after: nil)
            #expect(empty == FeedPage(changes: [], cursor: 0, hasMore: false))
            let first = try await store.addNote(
                NoteDraft(date: "2026-11-29", content: "one"), account: ann, quota: .unlimited)
            let second = try await store.addNote(
                NoteDraft(date: "2026-11-30", content: "two"), account: ann, quota: .unlimited)
            _ = try await store.addNote(
                NoteDraft(date: "2026-11-30", content: "bob's"), account: bob, quota: .unlimited)
            let changed = try #require(
                try await store.updateNote(
                    id: first.id, account: ann,
                    with: NoteDraft(date: "2026-11-29", content: "one, changed")))
            let removed = try await store.removeNote(
                id: second.id, account: ann, precondition: .none)
            guard case .applied = removed else {
                Issue.record("the note was not removed: \(removed)")
                return
            }
            // Four writes of Ann's, numbered 1…4; Bob's account counts on its own.
            #expect(try await store.changePosition(account: ann) == 4)
            #expect(try await store.changePosition(account: bob) == 1)

            // From nothing: the live note alone, as created, at its last change (3).
            let full = try await Self.page(store, ann, after: nil)
            #expect(
                full.changes == [
                    FeedChange(
                        sequence: 3, kind: .created, noteID: first.id, version: 2, note: changed)
                ])
            #expect(full.cursor == 4 && !full.hasMore)
            // After the second add: the update, then the tombstone with the last version.
            let later = try await Self.page(store, ann, after: 2)
            #expect(
                later.changes == [
                    FeedChange(
                        sequence: 3, kind: .updated, noteID: first.id, version: 2, note: changed),
                    FeedChange(
                        sequence: 4, kind: .deleted, noteID: second.id, version: 1, note: nil),
                ])
            // After the first add: the second note was made and removed since, so it is not
            // listed (that reader never saw it), yet the cursor moves past it.
            let afterFirst = try await Self.page(store, ann, after: 1)
            #expect(afterFirst.changes.map(\.sequence) == [3])
            #expect(afterFirst.cursor == 4)
            #expect(try await Self.page(store, ann, after: 4).changes.isEmpty)
            // Bob sees only his own.
            #expect(try await Self.page(store, bob, after: nil).changes.map(\.noteID) != [first.id])
            #expect(try await Self.page(store, bob, after: nil).changes.count == 1)
        }
    }

    @Test(arguments: StoreBackend.all)
    func pagesFollowTheCursorWithoutGapOrRepeat(backend: StoreBackend) async throws {
        try await TemporaryStore.withNew(backend) { store in
            let (ann, _) = try await store.annAndBob()
            var ids: [Int64] = []
            for index in 0..<7 {
                ids.append(
                    try await store.addNote(
                        NoteDraft(date: "2026-11-29", content: "note \(index)"), account: ann,
                        quota: .unlimited
                    ).id)
            }
            var cursor: Int64? = nil
            var seen: [Int64] = []
            var pages = 0
            while true {
                let page = try await Self.page(store, ann, after: cursor, limit: 3)
                seen += page.changes.map(\.sequence)
                cursor = page.cursor
                pages += 1
                if !page.hasMore { break }
            }
            #expect(seen == Array(1...7))
            #expect(pages == 3)
            #expect(cursor == 7)
        }
    }

    @Test(arguments: StoreBackend.all)
    func aCursorBeforePurgedTombstonesOrPastThePositionHasExpired(
        backend: StoreBackend
    ) async throws {
        try await TemporaryStore.withNew(backend) { store in
            let (ann, bob) = try await store.annAndBob()
            let note = try await store.addNote(
                NoteDraft(date: "2026-11-29", content: "x"), account: ann, quota: .unlimited)
            _ = try await store.addNote(
                NoteDraft(date: "2026-11-29", content: "kept"), account: ann, quota: .unlimited)
            _ = try await store.removeNote(id: note.id, account: ann, precondition: .none)
            #expect(try await store.changes(account: ann, after: 9, limit: 10) == .expired)
            // Nothing old enough: nothing purged, every cursor still answered.
            #expect(try await store.purgeChanges(removedBefore: 0) == 0)
            #expect(
                try await Self.page(store, ann, after: 1).changes.map(\.kind) == [
                    .created, .deleted,
                ])
            let future = Int64(Date().timeIntervalSince1970 * 1000) + 60_000
            #expect(try await store.purgeChanges(removedBefore: future) == 1)
            #expect(try await store.changes(account: ann, after: 1, limit: 10) == .expired)
            #expect(try await store.changes(account: ann, after: 2, limit: 10) == .expired)
            // From the tombstone on, and from nothing, the feed still answers.
            #expect(try await Self.page(store, ann, after: 3).changes.isEmpty)
            #expect(try await Self.page(store, ann, after: nil).changes.map(\.sequence) == [2])
            // Another account's cursors are untouched.
            #expect(try await Self.page(store, bob, after: 0).changes.isEmpty)
        }
    }

    @Test(arguments: StoreBackend.all)
    func observersHearOfEveryCommittedWriteToNotes(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        let heard = Observed<[ChangeSignal]>([])
        try await database.withStore { store in
            let (ann, bob) = try await store.annAndBob()
            store.observeChanges { signal in heard.update { $0.append(signal) } }
            // On PostgreSQL another store (another server) writes: the notification crosses.
            let writer = backend == .postgreSQL ? try database.open() : store
            defer { if backend == .postgreSQL { writer.close() } }
            if backend == .postgreSQL {
                // The listener says so once it listens: writes from then on are heard.
                try await heard.wait("the listener to listen") { $0.contains(.anyAccount) }
            }
            let note = try await writer.addNote(
                NoteDraft(date: "2026-11-29", content: "x"), account: bob, quota: .unlimited)
            try await heard.wait("Bob's add") { $0.contains(.account(bob)) }
            _ = try await writer.removeNote(id: note.id, account: bob, precondition: .none)
            _ = try await writer.addNote(
                NoteDraft(date: "2026-11-29", content: "y"), account: ann, quota: .unlimited)
            try await heard.wait("Ann's add") { $0.contains(.account(ann)) }
            #expect(heard.read { $0.filter { $0 != .anyAccount }.count } == 3)
        }
    }
}
