import Locking
import MyNotesDomain
import Testing

/// The legacy query's read: the token check first, notes only when it is admitted.
@Suite struct CheckedNotesTests {
    /// The store calls `admit` with what it found and reads notes only when it says yes.
    @Test(
        arguments: StoreBackend.all,
        [
            ("ann@x", [1] as [UInt8]?, true),  // the account's token
            ("ANN@x", [2], true),  // email case does not matter; a token of another account
            ("ann@x", nil, true),  // no token sent
            ("nobody@x", [1], false),  // no such account, with a real token
        ])
    func checksTheTokenAndReadsNotesOnlyWhenAdmitted(
        backend: StoreBackend, presented: (String, [UInt8]?, Bool)
    ) async throws {
        let (email, token, exists) = presented
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        try await database.withStore { store in
            let ann = try await store.createAccount(email: "ann@x", tokenHash: [1])
            _ = try await store.createAccount(email: "bob@x", tokenHash: [2])
            for day in 1...5 {
                _ = try await store.addNote(
                    NoteDraft(date: "2026-11-0\(day)", content: "n\(day)"), account: ann.id,
                    quota: .unlimited)
            }
            let holds = token == [1] && exists
            let seen = Lock<[TokenCheck?]>([])
            let refused = try await store.checkedNotes(
                email: email, presenting: token,
                admitting: { check in
                    seen.withLock { $0.append(check) }
                    return false
                }, page: NotePage(limit: 3))
            #expect(refused.notes.isEmpty)
            #expect(refused.check?.account == (exists ? ann : nil))
            #expect(refused.check?.holdsToken == (exists ? holds : nil))
            #expect(seen.withLock { $0 } == [refused.check])

            let admitted = try await store.checkedNotes(
                email: email, presenting: token, admitting: { $0 != nil },
                page: NotePage(limit: 3))
            #expect(admitted.check == refused.check)
            #expect(admitted.notes.map(\.content) == (exists ? ["n5", "n4", "n3"] : []))
        }
    }
}
