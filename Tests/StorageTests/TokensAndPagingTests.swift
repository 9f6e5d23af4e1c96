import Foundation
import MyNotesDomain
import Testing

/// Tokens (many per account), keyset pages, search folding and version-conditional
/// writes, on each backend.
@Suite struct TokensAndPagingTests {
    @Test(arguments: StoreBackend.all)
    func anAccountHoldsManyTokensAndEachCanBeRevoked(backend: StoreBackend) async throws {
        try await TemporaryStore.withNew(backend) { store in
            let ann = try await store.createAccount(email: "ann@x", tokenHash: [1])
            try await store.addToken([2], account: ann.id, at: 5)
            #expect(try await store.account(tokenHash: [1])?.account == ann)
            #expect(try await store.account(tokenHash: [2])?.account == ann)
            #expect(try await store.account(email: "ANN@x", presenting: [2])?.holdsToken == true)
            #expect(try await store.account(email: "ann@x", presenting: [3])?.holdsToken == false)
            #expect(try await store.account(email: "ann@x", presenting: nil)?.holdsToken == false)
            #expect(try await store.removeToken([1]))
            #expect(try await !store.removeToken([1]))
            #expect(try await store.account(tokenHash: [1])?.account == nil)
            #expect(try await store.replaceTokens(email: "ann@x", tokenHash: [4]))
            #expect(try await store.account(tokenHash: [2])?.account == nil)
            #expect(try await store.account(tokenHash: [4])?.account == ann)
            let bob = try await store.createAccount(email: "bob@x", tokenHash: [5])
            #expect(try await store.account(email: "bob@x", presenting: [4])?.holdsToken == false)
            let all = NotePage(limit: 10)
            #expect(
                try await store.checkedNotes(
                    email: "ann@x", presenting: [4], admitting: { _ in true }, page: all
                ).check?.holdsToken == true)
            #expect(
                try await store.checkedNotes(
                    email: "bob@x", presenting: [4], admitting: { _ in true }, page: all
                ).check?.holdsToken == false)
            #expect(try await store.removeAccount(email: "bob@x"))
            #expect(try await store.account(tokenHash: [5])?.account == nil)
            _ = bob
        }
    }

    @Test(arguments: StoreBackend.all)
    func passwordHashesAreStored(backend: StoreBackend) async throws {
        try await TemporaryStore.withNew(backend) { store in
            let ann = try await store.createAccount(
                email: "ann@x", tokenHash: nil, passwordHash: "p1")
            #expect(ann.passwordHash == "p1")
            #expect(try await store.setPasswordHash("p2", account: ann.id, keepingToken: nil))
            #expect(try await store.account(email: "ann@x")?.passwordHash == "p2")
            #expect(try await !store.setPasswordHash("p2", account: ann.id + 1, keepingToken: nil))
        }
    }

    @Test(arguments: StoreBackend.all)
    func pagesWalkNewestFirstAndStayCorrectWhileNotesComeAndGo(backend: StoreBackend) async throws {
        try await TemporaryStore.withNew(backend) { store in
            let id = try await store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil)
                .id
            var added: [Note] = []
            for day in 1...9 {
                added.append(
                    try await store.addNote(
                        NoteDraft(date: "2026-11-0\(day)", content: "n\(day)"), account: id,
                        quota: .unlimited))
            }
            let first = try await store.notes(account: id, page: NotePage(limit: 3))
            #expect(first.map(\.content) == ["n9", "n8", "n7"])
            // A newer note and a removed one ahead of the cursor change nothing after it.
            _ = try await store.addNote(
                NoteDraft(date: "2026-12-01", content: "new"), account: id, quota: .unlimited)
            #expect(try await store.removeNote(id: added[5].id, account: id))
            let second = try await store.notes(
                account: id, page: NotePage(after: first.last?.position, limit: 3))
            #expect(second.map(\.content) == ["n5", "n4", "n3"])
        }
    }

    @Test(
        arguments: StoreBackend.all,
        [
            ("MILK", ["Buy milk", "MILKSHAKE"]),
            ("straße", ["STRASSE 1"]),
            ("σοφία", ["ΣΟΦΊΑ"]),
            ("牛奶", ["买牛奶"]),
            ("ä", ["Ärger"]),
        ])
    func searchFoldsCaseBeyondASCII(backend: StoreBackend, search: (String, [String])) async throws
    {
        let (query, expected) = search
        try await TemporaryStore.withNew(backend) { store in
            let id = try await store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil)
                .id
            for (day, content) in [
                "Buy milk", "MILKSHAKE", "STRASSE 1", "ΣΟΦΊΑ", "买牛奶", "Ärger", "arger",
            ]
            .enumerated() {
                _ = try await store.addNote(
                    NoteDraft(date: "2026-10-\(10 + day)", content: content), account: id,
                    quota: .unlimited)
            }
            let found = try await store.notes(
                account: id, page: NotePage(limit: 50, containing: query))
            #expect(Set(found.map(\.content)) == Set(expected))
        }
    }

    @Test(arguments: StoreBackend.all)
    func conditionalWritesCheckTheVersion(backend: StoreBackend) async throws {
        try await TemporaryStore.withNew(backend) { store in
            let id = try await store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil)
                .id
            let note = try await store.addNote(
                NoteDraft(date: "2026-11-29", content: "a"), account: id, quota: .unlimited)
            #expect(note.version == 1)
            let draft = NoteDraft(date: "2026-11-29", content: "b")
            let change = NoteChange(draft)
            guard
                case .applied(let updated) = try await store.updateNote(
                    id: note.id, account: id, change: change, precondition: .matches([1]),
                    quota: .unlimited)
            else { Issue.record("update at version 1 refused"); return }
            #expect(updated.version == 2)
            #expect(
                try await store.updateNote(
                    id: note.id, account: id, change: change, precondition: .matches([1]),
                    quota: .unlimited)
                    == .preconditionFailed(current: updated))
            #expect(
                try await store.updateNote(
                    id: 999, account: id, change: change, precondition: .matches([1]),
                    quota: .unlimited)
                    == .notFound)
            if case .preconditionFailed(let current) = try await store.removeNote(
                id: note.id, account: id, precondition: .matches([1]))
            {
                #expect(current?.version == 2)
            } else {
                Issue.record("remove at a stale version went through")
            }
            guard
                case .applied = try await store.removeNote(
                    id: note.id, account: id, precondition: .matches([2]))
            else {
                Issue.record("remove at the current version refused")
                return
            }
            #expect(try await store.note(id: note.id, account: id) == nil)
        }
    }
}
