import Foundation
import MyNotesDomain
import MyNotesProtocol
import MyNotesTesting
import Synchronization
import Testing

/// The store contract, against each backend (``StoreBackend``): a new database per test.
@Suite struct NoteStoreTests {
    @Test(arguments: StoreBackend.all)
    func createsAccountsWithCaseInsensitiveUniqueEmails(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let account = try await store.createAccount(
                email: "Ann@Example.com", tokenHash: [1, 2, 3])
            #expect(try await store.account(email: "ann@example.COM") == account)
            await #expect(throws: StoreError.self) {
                _ = try await store.createAccount(email: "ANN@example.com", tokenHash: [4])
            }
            #expect(try await store.replaceTokens(email: "ann@example.com", tokenHash: [9]))
            #expect(try await store.account(tokenHash: [9])?.account == account)
            #expect(try await store.account(tokenHash: [1, 2, 3])?.account == nil)
            #expect(try await !store.replaceTokens(email: "nobody@example.com", tokenHash: [9]))
        }
    }

    @Test(arguments: StoreBackend.all)
    func ordersNotesNewestFirstWithABareDateAtMidnight(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let id = try await store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil)
                .id
            let dates: [NoteDate] = [
                "2026-11-28 23:59:59", "2026-11-29", "2026-11-29 00:00:00", "2026-11-29 08:00:00",
                "2026-11-29",
            ]
            var ids: [Int64] = []
            for date in dates {
                ids.append(
                    try await store.addNote(
                        NoteDraft(date: date, content: date.description), account: id,
                        quota: .unlimited
                    ).id)
            }
            let listed = try await store.notes(account: id).map(\.id)
            #expect(listed == [ids[3], ids[4], ids[2], ids[1], ids[0]])
        }
    }

    @Test(arguments: StoreBackend.all)
    func neverShowsOneAccountsNotesToAnother(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let (ann, bob) = try await store.annAndBob()
            let note = try await store.addNote(
                NoteDraft(date: "2026-01-01", content: "ann's"), account: ann, quota: .unlimited)
            #expect(try await store.notes(account: bob).isEmpty)
            #expect(try await store.note(id: note.id, account: bob) == nil)
            #expect(
                try await store.updateNote(
                    id: note.id, account: bob, with: NoteDraft(date: "2026-01-02", content: "x"))
                    == nil)
            #expect(try await !store.removeNote(id: note.id, account: bob))
            #expect(try await store.note(id: note.id, account: ann)?.content == "ann's")
        }
    }

    @Test(arguments: StoreBackend.all)
    func updatesAndRemovesNotes(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let id = try await store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil)
                .id
            let note = try await store.addNote(
                NoteDraft(date: "2026-01-01", content: "one"), account: id, quota: .unlimited)
            let updated = try #require(
                try await store.updateNote(
                    id: note.id, account: id,
                    with: NoteDraft(date: "2026-01-02 10:00:00", content: "two")))
            #expect(updated.content == "two")
            #expect(updated.date == "2026-01-02 10:00:00")
            #expect(updated.createdAt == note.createdAt)
            #expect(updated.updatedAt >= note.updatedAt)
            #expect(try await store.removeNote(id: note.id, account: id))
            #expect(try await !store.removeNote(id: note.id, account: id))
            #expect(try await store.notes(account: id).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.all)
    func neverReusesTheIDOfARemovedNote(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let id = try await store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil)
                .id
            let first = try await store.addNote(
                NoteDraft(date: "2026-01-01", content: "1"), account: id, quota: .unlimited)
            _ = try await store.removeNote(id: first.id, account: id)
            let second = try await store.addNote(
                NoteDraft(date: "2026-01-01", content: "2"), account: id, quota: .unlimited)
            #expect(second.id > first.id)
        }
    }

    @Test(arguments: StoreBackend.all)
    func enforcesTheQuotaPerAccount(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let (ann, bob) = try await store.annAndBob()
            for index in 0..<2 {
                _ = try await store.addNote(
                    NoteDraft(date: "2026-01-01", content: "\(index)"), account: ann,
                    quota: .atMost(2))
            }
            await #expect {
                _ = try await store.addNote(
                    NoteDraft(date: "2026-01-01", content: "3"), account: ann, quota: .atMost(2))
            } throws: { error in
                if case StoreError.quotaExceeded(.notes(2)) = error { return true }
                return false
            }
            _ = try await store.addNote(
                NoteDraft(date: "2026-01-01", content: "b"), account: bob, quota: .atMost(2))
            #expect(try await store.notes(account: ann).count == 2)
        }
    }

    @Test(arguments: StoreBackend.all)
    func removingAnAccountRemovesItsNotes(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let ann = try await store.createAccount(
                email: "ann@x", tokenHash: nil, passwordHash: nil
            ).id
            _ = try await store.addNote(
                NoteDraft(date: "2026-01-01", content: "1"), account: ann, quota: .unlimited)
            #expect(try await store.removeAccount(email: "ANN@x"))
            #expect(try await store.account(email: "ann@x") == nil)
            #expect(try await store.notes(account: ann).isEmpty)
            #expect(try await !store.removeAccount(email: "ann@x"))
        }
    }

    @Test(arguments: StoreBackend.all)
    func keepsEveryConcurrentWriteAndReadsItBack(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let id = try await store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil)
                .id
            let added = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        var ids: [Int64] = []
                        for index in 0..<50 {
                            let note = try await store.addNote(
                                NoteDraft(date: "2026-01-01", content: "\(worker)-\(index)"),
                                account: id, quota: .unlimited)
                            ids.append(note.id)
                            _ = try await store.notes(account: id)
                        }
                        return ids
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let stored = Set(try await store.notes(account: id).map(\.id))
            #expect(stored.count == 800)
            #expect(stored == Set(added))
        }
        // And it is all still there once the database is opened again.
        try await database.withStore { store in
            let account = try #require(try await store.account(email: "a@x"))
            #expect(try await store.notes(account: account.id).count == 800)
        }
    }

    @Test(arguments: StoreBackend.all)
    func keepsContentExactly(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        let content = "CJK 中文 emoji 👩‍👩‍👧 combining e\u{301} CRLF\r\nquote \" backslash \\ nul-free"
        try await database.withStore { store in
            let id = try await store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil)
                .id
            _ = try await store.addNote(
                NoteDraft(date: "2026-01-01", content: content), account: id, quota: .unlimited)
        }
        try await database.withStore { store in
            let id = try #require(try await store.account(email: "a@x")).id
            #expect(try await store.notes(account: id).first?.content == content)
        }
    }

    @Test(arguments: StoreBackend.all)
    func refusesReadsAndWritesOnceClosed(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        let store = try database.open()
        let id = try await store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil).id
        store.close()
        await #expect(throws: StoreError.self) { _ = try await store.notes(account: id) }
        await #expect(throws: StoreError.self) {
            _ = try await store.addNote(
                NoteDraft(date: "2026-01-01", content: "late"), account: id, quota: .unlimited)
        }
    }
}
