import Foundation
import MyNotesDomain
import Testing

/// The storage quota: a number of notes and of content bytes per account,
/// checked inside the write against running totals that every write to `notes` keeps,
/// on each backend.
@Suite struct StorageQuotaTests {
    static func refusal(_ error: any Error) -> NoteQuota.Limit? {
        if case StoreError.quotaExceeded(let limit) = error { return limit }
        return nil
    }

    static func draft(_ content: String) -> NoteDraft {
        NoteDraft(date: "2026-12-01", content: content)
    }

    /// Content is counted in UTF-8 bytes: "备忘" is 6 of them.
    @Test(arguments: StoreBackend.all)
    func addsUpToTheByteLimitAndNotOneBytePast(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let (ann, bob) = try await store.annAndBob()
            let quota = NoteQuota(notes: nil, bytes: 10)
            _ = try await store.addNote(Self.draft("备忘"), account: ann, quota: quota)
            await #expect {
                _ = try await store.addNote(Self.draft("12345"), account: ann, quota: quota)
            } throws: { Self.refusal($0) == .bytes(10) }
            _ = try await store.addNote(Self.draft("1234"), account: ann, quota: quota)
            // Another account's bytes are its own.
            _ = try await store.addNote(Self.draft("0123456789"), account: bob, quota: quota)
            #expect(try await store.notes(account: ann).map(\.content) == ["1234", "备忘"])
        }
    }

    /// Removing and shrinking notes gives bytes back; growing one past the limit is
    /// refused and leaves it as it was; removing an account takes its totals with it.
    @Test(arguments: StoreBackend.all)
    func totalsFollowUpdatesAndRemovals(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let ann = try await store.createAccount(
                email: "ann@x", tokenHash: nil, passwordHash: nil
            ).id
            let quota = NoteQuota(notes: 2, bytes: 8)
            let first = try await store.addNote(Self.draft("abcd"), account: ann, quota: quota)
            let second = try await store.addNote(Self.draft("efgh"), account: ann, quota: quota)
            await #expect {
                _ = try await store.addNote(Self.draft(""), account: ann, quota: quota)
            } throws: { Self.refusal($0) == .notes(2) }
            await #expect {
                _ = try await store.updateNote(
                    id: first.id, account: ann, change: NoteChange(content: "abcde"),
                    precondition: .none, quota: quota)
            } throws: { Self.refusal($0) == .bytes(8) }
            #expect(try await store.note(id: first.id, account: ann)?.content == "abcd")
            // A date-only change or a shrink is always allowed; it frees what it drops.
            _ = try await store.updateNote(
                id: first.id, account: ann, change: NoteChange(date: "2026-12-02"),
                precondition: .none, quota: quota)
            _ = try await store.updateNote(
                id: first.id, account: ann, change: NoteChange(content: "a"),
                precondition: .none, quota: quota)
            _ = try await store.updateNote(
                id: second.id, account: ann, change: NoteChange(content: "efghijk"),
                precondition: .none, quota: quota)
            #expect(try await store.removeNote(id: first.id, account: ann))
            _ = try await store.addNote(Self.draft("x"), account: ann, quota: quota)
            await #expect {
                _ = try await store.addNote(Self.draft("y"), account: ann, quota: quota)
            } throws: { Self.refusal($0) == .notes(2) }

            // The account goes with its notes (a cascade); a new one starts from zero.
            #expect(try await store.removeAccount(email: "ann@x"))
            let again = try await store.createAccount(
                email: "ann@x", tokenHash: nil, passwordHash: nil
            ).id
            _ = try await store.addNote(Self.draft("12345678"), account: again, quota: quota)
        }
    }

    /// Many writers at once, all joining the same group commits: the check and the insert
    /// are one step, so exactly the notes that fit are stored.
    @Test(arguments: StoreBackend.all)
    func concurrentAddsStopExactlyAtTheLimit(backend: StoreBackend) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let ann = try await store.createAccount(
                email: "ann@x", tokenHash: nil, passwordHash: nil
            ).id
            let quota = NoteQuota(notes: nil, bytes: 1_000)
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<300 {
                    group.addTask {
                        let content = String(format: "%010d", index)
                        return
                            (try? await store.addNote(
                                Self.draft(content), account: ann, quota: quota)) != nil
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 100)
            let stored = try await store.notes(account: ann)
            #expect(stored.count == 100)
            #expect(stored.reduce(0) { $0 + $1.content.utf8.count } == 1_000)
        }
    }
}
