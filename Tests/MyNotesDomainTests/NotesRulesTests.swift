import MyNotesDomain
import MyNotesProtocol
import MyNotesTesting
import Secrets
import Testing

/// The rules of notes, over an in-memory store: the quota in notes and in bytes, versions
/// that grow by one, `If-Match` preconditions decided in the write, ownership, and the
/// legacy token check.
@Suite struct NotesRulesTests {
    @Test func theQuotaOfNotesRefusesOneNoteTooMany() async throws {
        let domain = DomainFixture(quota: .atMost(2))
        let (ann, _) = try await domain.account("ann@example.com")
        let (bob, _) = try await domain.account("bob@example.com")
        try await domain.add("one", to: ann)
        let second = try await domain.add("two", to: ann)
        await expectFailure(of: { try await domain.add("three", to: ann) }) { (error: NoteError) in
            if case .quotaExceeded(.notes(2)) = error { true } else { false }
        }
        // Each account counts its own notes; a removal frees a place.
        try await domain.add("bob's", to: bob)
        try await domain.notes.remove(NoteID("\(second.id)")!, account: ann, precondition: .none)
        try await domain.add("three", to: ann)
        #expect(try await domain.notes.notes(account: ann, page: NotePage(limit: 10)).count == 2)
    }

    @Test func theQuotaOfBytesCountsEveryNoteAndLetsANoteShrink() async throws {
        let domain = DomainFixture(quota: NoteQuota(notes: nil, bytes: 10))
        let (ann, _) = try await domain.account("ann@example.com")
        let note = try await domain.add("12345678", to: ann)
        // "é" is two bytes of UTF-8: 8 + 3 bytes would pass 10.
        await expectFailure(of: { try await domain.add("aé", to: ann) }) { (error: NoteError) in
            if case .quotaExceeded(.bytes(10)) = error { true } else { false }
        }
        try await domain.add("ab", to: ann)
        await expectFailure(of: { _ = try await domain.change(note, to: "123456789", account: ann) }
        ) {
            (error: NoteError) in
            if case .quotaExceeded(.bytes(10)) = error { true } else { false }
        }
        // Shrinking is always allowed, and frees what a growth may then take.
        let shrunk = try await domain.change(note, to: "1234", account: ann)
        #expect(shrunk.content == "1234")
        try await domain.add("wxyz", to: ann)
    }

    @Test func everyChangeGrowsTheVersionByOne() async throws {
        let domain = DomainFixture()
        let (ann, _) = try await domain.account("ann@example.com")
        let note = try await domain.add("v1", to: ann)
        #expect(note.version == 1)
        let second = try await domain.change(note, to: "v2", account: ann)
        let third = try await domain.notes.change(
            NoteID("\(note.id)")!, account: ann, content: nil,
            date: NoteDate(validating: "2026-12-01"), precondition: .none)
        #expect([second.version, third.version] == [2, 3])
        // A field left out keeps the note's value at the time of the write.
        #expect(third.content == "v2" && third.date == "2026-12-01")
        #expect(try await domain.notes.note(NoteID("\(note.id)")!, account: ann) == third)
    }

    @Test func aStaleVersionChangesNothingAndTellsTheCurrentNote() async throws {
        let domain = DomainFixture()
        let (ann, _) = try await domain.account("ann@example.com")
        let note = try await domain.add("v1", to: ann)
        let current = try await domain.change(
            note, to: "v2", account: ann, precondition: .matches([1]))
        await expectFailure(of: {
            _ = try await domain.change(note, to: "lost", account: ann, precondition: .matches([1]))
        }) { (error: NoteError) in
            if case .versionMismatch(current) = error { true } else { false }
        }
        await expectFailure(of: {
            try await domain.notes.remove(
                NoteID("\(note.id)")!, account: ann, precondition: .matches([1, 3]))
        }) { (error: NoteError) in
            if case .versionMismatch(current) = error { true } else { false }
        }
        // Either of several versions may match (`If-Match: "…1", "…2"`).
        _ = try await domain.change(note, to: "v3", account: ann, precondition: .matches([1, 2]))
        try await domain.notes.remove(
            NoteID("\(note.id)")!, account: ann, precondition: .matches([3]))
        #expect(try await domain.notes.notes(account: ann, page: NotePage(limit: 10)).isEmpty)
    }

    @Test func aMissingNoteFailsOnlyTheAnyVersionPrecondition() async throws {
        let domain = DomainFixture()
        let (ann, _) = try await domain.account("ann@example.com")
        let missing = Note(id: 99, date: "2026-11-29", content: "", createdAt: 0, updatedAt: 0)
        await expectFailure(of: {
            _ = try await domain.change(missing, to: "x", account: ann, precondition: .exists)
        }) { (error: NoteError) in
            if case .preconditionFailed = error { true } else { false }
        }
        for precondition in [WritePrecondition.none, .matches([1])] {
            await expectFailure(of: {
                _ = try await domain.change(
                    missing, to: "x", account: ann, precondition: precondition)
            }) { (error: NoteError) in
                if case .notFound = error { true } else { false }
            }
        }
    }

    @Test func aNoteOfAnotherAccountIsNotFound() async throws {
        let domain = DomainFixture()
        let (ann, _) = try await domain.account("ann@example.com")
        let (bob, _) = try await domain.account("bob@example.com")
        let note = try await domain.add("Ann's", to: ann)
        let id = NoteID("\(note.id)")!
        let notFound = { (error: NoteError) in if case .notFound = error { true } else { false } }
        await expectFailure(of: { _ = try await domain.notes.note(id, account: bob) }, notFound)
        // Even with the right version: another account's note looks exactly like no note.
        for precondition in [WritePrecondition.none, .matches([1])] {
            await expectFailure(
                of: {
                    _ = try await domain.change(
                        note, to: "Bob's", account: bob, precondition: precondition)
                }, notFound)
            await expectFailure(
                of: { try await domain.notes.remove(id, account: bob, precondition: precondition) },
                notFound)
        }
        #expect(try await domain.notes.notes(account: bob, page: NotePage(limit: 10)).isEmpty)
        #expect(try await domain.notes.note(id, account: ann) == note)
    }

    @Test func theLegacyQueryRefusesAWrongTokenAndAMissingAccountAlike() async throws {
        let domain = DomainFixture()
        let (ann, token) = try await domain.account("ann@example.com")
        let (_, bobsToken) = try await domain.account("bob@example.com")
        let note = try await domain.add("Ann's", to: ann)
        let email = try Email(validating: "ann@example.com")
        let refused = { (error: NoteError) in
            if case .authenticationFailed = error { true } else { false }
        }
        for wrong in ["not a token", bobsToken] {
            await expectFailure(
                of: {
                    _ = try await domain.notes.notes(
                        domain.notes.credentials(email: email, token: wrong), firstPage: 10)
                }, refused)
        }
        await expectFailure(
            of: {
                _ = try await domain.notes.notes(
                    domain.notes.credentials(email: email, token: nil), firstPage: 10)
            }, refused)
        await expectFailure(
            of: {
                _ = try await domain.notes.notes(
                    domain.notes.credentials(
                        email: Email(validating: "nobody@example.com"), token: token),
                    firstPage: 10)
            }, refused)
        let answer = try await domain.notes.notes(
            domain.notes.credentials(email: email, token: token), firstPage: 10)
        #expect(answer.account == ann && answer.notes == [note])
    }

    @Test func pagesRunNewestFirstByDateThenIDAndSearchIgnoresCase() async throws {
        let domain = DomainFixture()
        let (ann, _) = try await domain.account("ann@example.com")
        let old = try await domain.add("Buy MILK", date: "2026-11-28", to: ann)
        let first = try await domain.add("Straße", date: "2026-11-29", to: ann)
        let second = try await domain.add("milk again", date: "2026-11-29", to: ann)
        let timed = try await domain.add("later", date: "2026-11-29 08:00:00", to: ann)
        let all = try await domain.notes.notes(account: ann, page: NotePage(limit: 10))
        #expect(all.map(\.id) == [timed.id, second.id, first.id, old.id])
        let rest = try await domain.notes.notes(
            account: ann, page: NotePage(after: second.position, limit: 10))
        #expect(rest.map(\.id) == [first.id, old.id])
        let milk = try await domain.notes.notes(
            account: ann, page: NotePage(limit: 10, containing: "Milk"))
        #expect(milk.map(\.id) == [second.id, old.id])
        let strasse = try await domain.notes.notes(
            account: ann, page: NotePage(limit: 10, containing: "STRASSE"))
        #expect(strasse.map(\.id) == [first.id])
    }
}
