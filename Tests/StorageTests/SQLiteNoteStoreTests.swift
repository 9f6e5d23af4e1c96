import Foundation
import Storage
import Synchronization
import Testing

/// The SQLite store on a real database file in a temporary folder.
@Suite struct SQLiteNoteStoreTests {
    let database: TemporaryDatabaseFile
    var path: String { database.path }

    init() throws {
        database = try TemporaryDatabaseFile()
    }

    func withStore<T>(_ body: (SQLiteNoteStore) throws -> T) throws -> T {
        let store = try SQLiteNoteStore(path: path)
        defer { store.close() }
        return try body(store)
    }

    func cleanUp() {
        database.remove()
    }

    @Test func createsAccountsWithCaseInsensitiveUniqueEmails() throws {
        defer { cleanUp() }
        try withStore { store in
            let account = try store.createAccount(email: "Ann@Example.com", tokenHash: [1, 2, 3])
            #expect(try store.account(email: "ann@example.COM") == account)
            #expect(throws: StoreError.self) {
                _ = try store.createAccount(email: "ANN@example.com", tokenHash: [4])
            }
            #expect(try store.replaceTokens(email: "ann@example.com", tokenHash: [9]))
            #expect(try store.account(tokenHash: [9]) == account)
            #expect(try store.account(tokenHash: [1, 2, 3]) == nil)
            #expect(try !store.replaceTokens(email: "nobody@example.com", tokenHash: [9]))
        }
    }

    @Test func ordersNotesNewestFirstWithABareDateAtMidnight() throws {
        defer { cleanUp() }
        try withStore { store in
            let id = try store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil).id
            let dates = [
                "2026-11-28 23:59:59", "2026-11-29", "2026-11-29 00:00:00", "2026-11-29 08:00:00",
                "2026-11-29",
            ]
            let ids = try dates.map {
                try store.addNote(NoteDraft(date: $0, content: $0), account: id, quota: .unlimited)
                    .id
            }
            let listed = try store.notes(account: id).map(\.id)
            #expect(listed == [ids[3], ids[4], ids[2], ids[1], ids[0]])
        }
    }

    @Test func neverShowsOneAccountsNotesToAnother() throws {
        defer { cleanUp() }
        try withStore { store in
            let ann = try store.createAccount(email: "ann@x", tokenHash: nil, passwordHash: nil).id
            let bob = try store.createAccount(email: "bob@x", tokenHash: nil, passwordHash: nil).id
            let note = try store.addNote(
                NoteDraft(date: "2026-01-01", content: "ann's"), account: ann, quota: .unlimited)
            #expect(try store.notes(account: bob).isEmpty)
            #expect(try store.note(id: note.id, account: bob) == nil)
            #expect(
                try store.updateNote(
                    id: note.id, account: bob, with: NoteDraft(date: "2026-01-02", content: "x"))
                    == nil)
            #expect(try !store.removeNote(id: note.id, account: bob))
            #expect(try store.note(id: note.id, account: ann)?.content == "ann's")
        }
    }

    @Test func updatesAndRemovesNotes() throws {
        defer { cleanUp() }
        try withStore { store in
            let id = try store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil).id
            let note = try store.addNote(
                NoteDraft(date: "2026-01-01", content: "one"), account: id, quota: .unlimited)
            let updated = try #require(
                try store.updateNote(
                    id: note.id, account: id,
                    with: NoteDraft(date: "2026-01-02 10:00:00", content: "two")))
            #expect(updated.content == "two")
            #expect(updated.date == "2026-01-02 10:00:00")
            #expect(updated.createdAt == note.createdAt)
            #expect(updated.updatedAt >= note.updatedAt)
            #expect(try store.removeNote(id: note.id, account: id))
            #expect(try !store.removeNote(id: note.id, account: id))
            #expect(try store.notes(account: id).isEmpty)
        }
    }

    @Test func neverReusesTheIDOfARemovedNote() throws {
        defer { cleanUp() }
        try withStore { store in
            let id = try store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil).id
            let first = try store.addNote(
                NoteDraft(date: "2026-01-01", content: "1"), account: id, quota: .unlimited)
            _ = try store.removeNote(id: first.id, account: id)
            let second = try store.addNote(
                NoteDraft(date: "2026-01-01", content: "2"), account: id, quota: .unlimited)
            #expect(second.id > first.id)
        }
    }

    @Test func enforcesTheQuotaPerAccount() throws {
        defer { cleanUp() }
        try withStore { store in
            let ann = try store.createAccount(email: "ann@x", tokenHash: nil, passwordHash: nil).id
            let bob = try store.createAccount(email: "bob@x", tokenHash: nil, passwordHash: nil).id
            for index in 0..<2 {
                _ = try store.addNote(
                    NoteDraft(date: "2026-01-01", content: "\(index)"), account: ann,
                    quota: .atMost(2))
            }
            #expect {
                _ = try store.addNote(
                    NoteDraft(date: "2026-01-01", content: "3"), account: ann, quota: .atMost(2))
            } throws: { error in
                if case StoreError.quotaExceeded(limit: 2) = error { return true }
                return false
            }
            _ = try store.addNote(
                NoteDraft(date: "2026-01-01", content: "b"), account: bob, quota: .atMost(2))
            #expect(try store.notes(account: ann).count == 2)
        }
    }

    @Test func removingAnAccountRemovesItsNotes() throws {
        defer { cleanUp() }
        try withStore { store in
            let ann = try store.createAccount(email: "ann@x", tokenHash: nil, passwordHash: nil).id
            _ = try store.addNote(
                NoteDraft(date: "2026-01-01", content: "1"), account: ann, quota: .unlimited)
            #expect(try store.removeAccount(email: "ANN@x"))
            #expect(try store.account(email: "ann@x") == nil)
            #expect(try store.notes(account: ann).isEmpty)
            #expect(try !store.removeAccount(email: "ann@x"))
        }
    }

    @Test func keepsEveryConcurrentWriteAndReadsItBack() throws {
        defer { cleanUp() }
        try withStore { store in
            let id = try store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil).id
            let added = Mutex<[Int64]>([])
            DispatchQueue.concurrentPerform(iterations: 16) { worker in
                for index in 0..<50 {
                    let note = try! store.addNote(
                        NoteDraft(date: "2026-01-01", content: "\(worker)-\(index)"), account: id,
                        quota: .unlimited)
                    added.withLock { $0.append(note.id) }
                    _ = try! store.notes(account: id)
                }
            }
            let stored = Set(try store.notes(account: id).map(\.id))
            #expect(stored.count == 800)
            #expect(stored == Set(added.withLock { $0 }))
        }
        // And it is all still there once the database is opened again.
        try withStore { store in
            let account = try #require(try store.account(email: "a@x"))
            #expect(try store.notes(account: account.id).count == 800)
        }
    }

    @Test func keepsContentExactly() throws {
        defer { cleanUp() }
        let content = "CJK 中文 emoji 👩‍👩‍👧 combining e\u{301} CRLF\r\nquote \" backslash \\ nul-free"
        try withStore { store in
            let id = try store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil).id
            _ = try store.addNote(
                NoteDraft(date: "2026-01-01", content: content), account: id, quota: .unlimited)
        }
        try withStore { store in
            let id = try #require(try store.account(email: "a@x")).id
            #expect(try store.notes(account: id).first?.content == content)
        }
    }

    @Test func refusesReadsAndWritesOnceClosed() throws {
        defer { cleanUp() }
        let store = try SQLiteNoteStore(path: path)
        let id = try store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil).id
        store.close()
        #expect(throws: StoreError.self) { _ = try store.notes(account: id) }
        #expect(throws: StoreError.self) {
            _ = try store.addNote(
                NoteDraft(date: "2026-01-01", content: "late"), account: id, quota: .unlimited)
        }
    }

    @Test func reportsADatabaseThatCannotBeOpened() {
        #expect {
            _ = try SQLiteNoteStore(path: "/nonexistent-folder/mynotes.sqlite")
        } throws: { error in
            if case StoreError.cannotOpen = error { return true }
            return false
        }
    }

    @Test(arguments: ["sqlite:notes.db", "sqlite:///tmp/notes.db"])
    func parsesSQLiteLocations(text: String) throws {
        guard case .sqlite(let path) = try StoreLocation(parsing: text) else {
            Issue.record("not sqlite")
            return
        }
        #expect(path.hasSuffix("notes.db"))
    }

    @Test(arguments: ["postgres://x", "notes.db", "sqlite:"])
    func refusesOtherLocations(text: String) {
        #expect(throws: StoreError.self) { _ = try StoreLocation(parsing: text) }
    }
}
