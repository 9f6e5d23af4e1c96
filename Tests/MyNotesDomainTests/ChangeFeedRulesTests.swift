import MyNotesDomain
import MyNotesTesting
import Testing

/// The change feed's rules over an in-memory store: kinds relative to the reader's cursor,
/// cursors that move past what a reader need not see, tombstones that the purge removes
/// once due on the service's clock, after which an older cursor has expired.
@Suite struct ChangeFeedRulesTests {
    @Test func changesAreCreatedUpdatedOrDeletedAsSeenFromTheCursor() async throws {
        let domain = DomainFixture()
        let (ann, _) = try await domain.account("ann@example.com")
        let kept = try await domain.add("kept", to: ann)
        let gone = try await domain.add("gone", to: ann)
        let cursor = try await domain.services.changeFeed.page(
            account: ann.id, after: nil, limit: 10
        ).cursor
        #expect(cursor == 2)
        let changed = try await domain.change(kept, to: "kept, changed", account: ann)
        try await domain.notes.remove(NoteID("\(gone.id)")!, account: ann, precondition: .none)
        let made = try await domain.add("new", to: ann)

        let since = try await domain.services.changeFeed.page(
            account: ann.id, after: cursor, limit: 10)
        #expect(
            since.changes == [
                FeedChange(sequence: 3, kind: .updated, noteID: kept.id, version: 2, note: changed),
                FeedChange(sequence: 4, kind: .deleted, noteID: gone.id, version: 1, note: nil),
                FeedChange(sequence: 5, kind: .created, noteID: made.id, version: 1, note: made),
            ])
        #expect(since.cursor == 5 && !since.hasMore)
        // From nothing: the live notes as made, no tombstone.
        let full = try await domain.services.changeFeed.page(account: ann.id, after: nil, limit: 10)
        #expect(full.changes.map(\.kind) == [.created, .created])
        #expect(full.changes.map(\.noteID) == [kept.id, made.id])
    }

    @Test func aPageShortOfTheEndTellsMoreFollowAndWhereToGoOn() async throws {
        let domain = DomainFixture()
        let (ann, _) = try await domain.account("ann@example.com")
        for index in 1...5 { try await domain.add("note \(index)", to: ann) }
        let feed = domain.services.changeFeed
        let first = try await feed.page(account: ann.id, after: nil, limit: 2)
        #expect(first.changes.map(\.sequence) == [1, 2] && first.cursor == 2 && first.hasMore)
        let second = try await feed.page(account: ann.id, after: first.cursor, limit: 2)
        #expect(second.changes.map(\.sequence) == [3, 4] && second.hasMore)
        let last = try await feed.page(account: ann.id, after: second.cursor, limit: 2)
        #expect(last.changes.map(\.sequence) == [5] && last.cursor == 5 && !last.hasMore)
        // A cursor past the account's position (another database's) cannot be answered for.
        await expectFailure(of: { _ = try await feed.page(account: ann.id, after: 6, limit: 2) }) {
            (error: ChangeFeedError) in
            if case .cursorExpired = error { true } else { false }
        }
    }

    @Test func aCursorBeforeAPurgedTombstoneExpiresOnceThePurgeIsDue() async throws {
        let domain = DomainFixture(retention: .seconds(3_600))
        let (ann, _) = try await domain.account("ann@example.com")
        let feed = domain.services.changeFeed
        let note = try await domain.add("gone", to: ann)
        try await domain.add("kept", to: ann)
        try await domain.notes.remove(NoteID("\(note.id)")!, account: ann, precondition: .none)

        // Within the retention the tombstone stays and the old cursor reads it.
        domain.clock.advance(by: .seconds(3_599))
        let early = try await feed.page(account: ann.id, after: 1, limit: 10)
        #expect(early.changes.map(\.kind) == [.created, .deleted])

        // Past it, the feed's next read purges first: the cursor before the tombstone has
        // expired, one at or after it has not, and a reader from nothing starts again.
        domain.clock.advance(by: .seconds(2))
        await expectFailure(of: { _ = try await feed.page(account: ann.id, after: 1, limit: 10) }) {
            (error: ChangeFeedError) in
            if case .cursorExpired = error { true } else { false }
        }
        #expect(try await feed.page(account: ann.id, after: 3, limit: 10).changes.isEmpty)
        let again = try await feed.page(account: ann.id, after: nil, limit: 10)
        #expect(again.changes.map(\.sequence) == [2] && again.cursor == 3)
    }

    @Test func thePurgeWaitsForItsIntervalOnTheServicesClock() async throws {
        // A day's retention: purges run at most hourly, so a tombstone just past the
        // retention stays until an hour has passed since the last purge.
        let domain = DomainFixture(retention: .seconds(86_400))
        let (ann, _) = try await domain.account("ann@example.com")
        let feed = domain.services.changeFeed
        let note = try await domain.add("gone", to: ann)
        try await domain.notes.remove(NoteID("\(note.id)")!, account: ann, precondition: .none)
        domain.clock.advance(by: .seconds(86_400 - 60))
        // A purge runs (the first is due an hour after the feed was made) and finds the
        // tombstone a minute short of the retention.
        #expect(try await feed.page(account: ann.id, after: 1, limit: 10).changes.count == 1)
        domain.clock.advance(by: .seconds(120))
        #expect(try await feed.page(account: ann.id, after: 1, limit: 10).changes.count == 1)
        domain.clock.advance(by: .seconds(3_600 - 120))
        await expectFailure(of: { _ = try await feed.page(account: ann.id, after: 1, limit: 10) }) {
            (error: ChangeFeedError) in
            if case .cursorExpired = error { true } else { false }
        }
    }

    @Test func observersHearOfEveryCommittedWriteToNotes() async throws {
        let domain = DomainFixture()
        let (ann, _) = try await domain.account("ann@example.com")
        let heard = EventCounter("a change of Ann's")
        domain.services.changeFeed.observe { signal in
            if signal == .account(ann.id) { heard.signal() }
        }
        let note = try await domain.add("one", to: ann)
        _ = try await domain.change(note, to: "two", account: ann)
        // A refused write commits nothing, and is not heard.
        _ = try? await domain.change(note, to: "three", account: ann, precondition: .matches([1]))
        try await domain.notes.remove(NoteID("\(note.id)")!, account: ann, precondition: .none)
        try await heard.wait(for: 3)
        #expect(heard.value == 3)
        #expect(try await domain.services.changeFeed.position(account: ann.id) == 3)
    }
}
