import Foundation
import MyNotesDomain
import Testing

@testable import Storage

/// Named migrations over databases made by earlier code, SQLite's own error codes kept
/// in a store failure, and the conditional-write rules the store decides on its own.
@Suite struct StoreErrorAndMigrationTests {
    let database: TemporaryDatabaseFile
    var path: String { database.path }

    init() throws {
        database = try TemporaryDatabaseFile()
    }

    /// Each step as the code before named migrations ran it: the step's SQL (released
    /// steps never change), then `user_version` counting the steps applied. Rows are
    /// added on the way; the second step also sets a version no later step would.
    static let oldSteps = [
        SQLiteMigrations.all[0].sql + "\n" + """
            INSERT INTO accounts VALUES (1, 'ann@x', x'0102', 5);
            INSERT INTO notes VALUES (1, 1, '2026-11-29', '2026-11-29 00:00:00', 'old', 5, 5);
            PRAGMA user_version = 1;
            """,
        SQLiteMigrations.all[1].sql + "\n" + """
            UPDATE notes SET version = 7;
            PRAGMA user_version = 2;
            """,
    ]

    /// The names the database records as applied.
    func appliedMigrations() throws -> [String] {
        try database.texts("SELECT name FROM schema_migrations")
    }

    static let allNames = [
        "accounts-and-notes", "tokens-passwords-versions", "account-usage-totals",
        "token-last-use-and-kind", "change-feed",
        "notes-search-index", "notes-search-fives",
    ]

    @Test func aNewDatabaseRecordsEveryMigrationByName() async throws {
        defer { database.remove() }
        try await database.withStore { _ in }
        #expect(try appliedMigrations().sorted() == Self.allNames.sorted())
    }

    /// A database the old code brought to `user_version` 1 or 2 opens: the steps it
    /// counted are taken as applied by name (not run again), the rest run.
    @Test(arguments: [1, 2])
    func aDatabaseCountedByUserVersionUpgrades(oldSteps: Int) async throws {
        defer { database.remove() }
        for step in Self.oldSteps.prefix(oldSteps) { try database.execute(step) }
        try await database.withStore { store in
            #expect(try await store.account(tokenHash: [1, 2])?.account.email == "ann@x")
            let notes = try await store.notes(account: 1, page: NotePage(limit: 10))
            #expect(notes.map(\.content) == ["old"])
            // Version 7 was set by the old step 2 itself; had it run again, it would fail.
            #expect(notes.first?.version == (oldSteps == 2 ? 7 : 1))
            let added = try await store.addNote(
                NoteDraft(date: "2026-12-01", content: "new"), account: 1, quota: .unlimited)
            #expect(added.version == 1)
        }
        #expect(try appliedMigrations().sorted() == Self.allNames.sorted())
        // Opening again finds everything applied and changes nothing.
        let reopened = try await database.withStore { store in
            try await store.notes(account: 1, page: NotePage(limit: 10))
        }
        #expect(reopened.count == 2)
        #expect(try appliedMigrations().count == Self.allNames.count)
    }

    /// The usage totals start from what an older database already holds: its note of 3
    /// bytes counts against the quota from the first opening on.
    @Test func usageTotalsCountTheNotesOfAnOlderDatabase() async throws {
        defer { database.remove() }
        for step in Self.oldSteps { try database.execute(step) }
        try await database.withStore { store in
            let draft = NoteDraft(date: "2026-12-01", content: "new")
            await #expect(throws: StoreError.self) {
                _ = try await store.addNote(draft, account: 1, quota: .atMost(1))
            }
            await #expect(throws: StoreError.self) {
                _ = try await store.addNote(
                    draft, account: 1, quota: NoteQuota(notes: nil, bytes: 5))
            }
            _ = try await store.addNote(draft, account: 1, quota: NoteQuota(notes: 2, bytes: 6))
            #expect(try await store.notes(account: 1, page: NotePage(limit: 10)).count == 2)
        }
    }

    /// A failure keeps what SQLite said: here a trigger refuses an insert, which SQLite
    /// reports as SQLITE_CONSTRAINT_TRIGGER (extended code 1811, primary 19).
    @Test func aStoreFailureKeepsSQLitesExtendedCode() async throws {
        defer { database.remove() }
        let account = try await database.withStore { store in
            try await store.createAccount(email: "ann@x", tokenHash: nil, passwordHash: nil)
        }
        try database.execute(
            """
            CREATE TRIGGER refuse_notes BEFORE INSERT ON notes
            BEGIN SELECT RAISE(ABORT, 'notes are refused'); END;
            """)
        try await database.withStore { store in
            do throws(StoreError) {
                _ = try await store.addNote(
                    NoteDraft(date: "2026-12-01", content: "x"), account: account.id,
                    quota: .unlimited)
                Issue.record("the insert went through")
            } catch .database(let error as SQLiteError) {
                #expect(error.extendedCode == 1811)
                #expect(error.code == SQLiteError.constraint)
                #expect(error.message == "notes are refused")
                #expect(error.sql?.contains("INSERT INTO notes") == true)
                #expect("\(StoreError.database(error))".contains("1811"))
            } catch {
                Issue.record("expected a database error, got \(error)")
            }
        }
    }

    /// The unique index decides a duplicate email inside the insert: of many sign-ups
    /// racing for one email, one wins and the others learn it is taken.
    @Test(arguments: StoreBackend.all)
    func racingSignUpsForOneEmailCreateOneAccount(backend: StoreBackend) async throws {
        defer { database.remove() }
        let store = try TemporaryStore(backend).open()
        defer { store.close() }
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                group.addTask {
                    do throws(StoreError) {
                        _ = try await store.createAccount(
                            email: index.isMultiple(of: 2) ? "ann@x" : "ANN@x",
                            tokenHash: [UInt8(index)],
                            passwordHash: nil)
                        return "created"
                    } catch .duplicateEmail {
                        return "duplicate"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == "created" }.count == 1)
        #expect(outcomes.filter { $0 == "duplicate" }.count == 15)
        #expect(try await store.allAccounts().count == 1)
    }

    static func kind(_ outcome: ConditionalWrite<Void>) -> String {
        switch outcome {
        case .applied: "applied"
        case .notFound: "not found"
        case .preconditionFailed(let current?): "precondition failed, at \(current.version)"
        case .preconditionFailed(nil): "precondition failed, no note"
        }
    }

    @Test(arguments: StoreBackend.all)
    func preconditionsAreDecidedInTheWrite(backend: StoreBackend) async throws {
        defer { database.remove() }
        try await TemporaryStore(backend).withStore { store in
            let id = try await store.createAccount(email: "a@x", tokenHash: nil, passwordHash: nil)
                .id
            let note = try await store.addNote(
                NoteDraft(date: "2026-11-29", content: "a"), account: id, quota: .unlimited)
            // A partial change keeps the other field as the row has it.
            guard
                case .applied(let dated) = try await store.updateNote(
                    id: note.id, account: id, change: NoteChange(date: "2026-12-24 18:00:00"),
                    precondition: .exists, quota: .unlimited)
            else { Issue.record("If-Match: * on an existing note refused"); return }
            #expect(dated.content == "a")
            #expect(dated.date == "2026-12-24 18:00:00")
            #expect(dated.position.sortKey == "2026-12-24 18:00:00")
            #expect(dated.version == 2)
            #expect(
                try await store.updateNote(
                    id: note.id, account: id, change: NoteChange(content: "b"),
                    precondition: .matches([1, 3]), quota: .unlimited)
                    == .preconditionFailed(current: dated))
            #expect(
                Self.kind(try await store.removeNote(id: 999, account: id, precondition: .none))
                    == "not found")
            #expect(
                Self.kind(try await store.removeNote(id: 999, account: id, precondition: .exists))
                    == "precondition failed, no note")
            #expect(
                try await store.updateNote(
                    id: 999, account: id, change: NoteChange(content: "b"), precondition: .exists,
                    quota: .unlimited)
                    == .preconditionFailed(current: nil))
            #expect(
                Self.kind(
                    try await store.removeNote(id: note.id, account: id, precondition: .matches([]))
                )
                    == "precondition failed, at 2")
            #expect(
                Self.kind(
                    try await store.removeNote(id: note.id, account: id, precondition: .exists))
                    == "applied")
            #expect(try await store.note(id: note.id, account: id) == nil)
        }
    }
}
