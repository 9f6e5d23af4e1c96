import CSQLite
import Foundation
import Storage
import Testing

/// Tokens (many per account), migration step 2, keyset pages, search folding and
/// version-conditional writes, on a real database file.
@Suite struct SQLiteTokensAndPagingTests {
    let database: TemporaryDatabaseFile
    var path: String { database.path }

    init() throws {
        database = try TemporaryDatabaseFile()
    }

    func withStore<T>(_ body: (SQLiteNoteStore) async throws -> T) async throws -> T {
        let store = try SQLiteNoteStore(path: path)
        defer {
            store.close()
            database.remove()
        }
        return try await body(store)
    }

    @Test func anAccountHoldsManyTokensAndEachCanBeRevoked() async throws {
        try await withStore { store in
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

    @Test func passwordHashesAreStored() async throws {
        try await withStore { store in
            let ann = try await store.createAccount(
                email: "ann@x", tokenHash: nil, passwordHash: "p1")
            #expect(ann.passwordHash == "p1")
            #expect(try await store.setPasswordHash("p2", account: ann.id, keepingToken: nil))
            #expect(try await store.account(email: "ann@x")?.passwordHash == "p2")
            #expect(try await !store.setPasswordHash("p2", account: ann.id + 1, keepingToken: nil))
        }
    }

    /// A database made by step 1 keeps working: each account's token moves to `tokens`.
    @Test func migrationStepTwoMovesEachAccountsTokenIntoTheTokensTable() async throws {
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        let stepOne = """
            CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE,
                token_hash BLOB NOT NULL, created_at INTEGER NOT NULL);
            CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT,
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                date TEXT NOT NULL, sort_key TEXT NOT NULL, content TEXT NOT NULL,
                created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
            CREATE INDEX notes_by_account_newest ON notes (account_id, sort_key DESC, id DESC);
            INSERT INTO accounts VALUES (1, 'ann@x', x'0102', 5), (2, 'bob@x', x'0304', 6);
            INSERT INTO notes VALUES (1, 1, '2026-11-29', '2026-11-29 00:00:00', 'old', 5, 5);
            PRAGMA user_version = 1;
            """
        #expect(sqlite3_exec(handle, stepOne, nil, nil, nil) == SQLITE_OK)
        #expect(sqlite3_close(handle) == SQLITE_OK)
        try await withStore { store in
            #expect(try await store.account(tokenHash: [1, 2])?.account.email == "ann@x")
            #expect(try await store.account(tokenHash: [3, 4])?.account.email == "bob@x")
            let notes = try await store.notes(account: 1)
            #expect(notes.map(\.content) == ["old"])
            #expect(notes.first?.version == 1)
        }
    }

    @Test func pagesWalkNewestFirstAndStayCorrectWhileNotesComeAndGo() async throws {
        try await withStore { store in
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

    @Test(arguments: [
        ("MILK", ["Buy milk", "MILKSHAKE"]),
        ("straße", ["STRASSE 1"]),
        ("σοφία", ["ΣΟΦΊΑ"]),
        ("牛奶", ["买牛奶"]),
        ("ä", ["Ärger"]),
    ])
    func searchFoldsCaseBeyondASCII(query: String, expected: [String]) async throws {
        try await withStore { store in
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

    @Test func conditionalWritesCheckTheVersion() async throws {
        try await withStore { store in
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
