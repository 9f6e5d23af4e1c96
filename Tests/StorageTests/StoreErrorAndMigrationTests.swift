import Foundation
import MyNotesDomain
import Testing

@testable import SQLiteStore

/// Named migrations recorded by a new database (SQLiteBaselineTests opens those of earlier
/// code), SQLite's own error codes kept in a store failure, and the conditional-write
/// rules the store decides on its own.
@Suite struct StoreErrorAndMigrationTests {
    let database: TemporaryDatabaseFile
    var path: String { database.path }

    init() throws {
        database = try TemporaryDatabaseFile()
    }

    /// The names the database records as applied.
    func appliedMigrations() throws -> [String] {
        try database.texts("SELECT name FROM schema_migrations")
    }

    @Test func aNewDatabaseRecordsEveryMigrationByName() async throws {
        defer { database.remove() }
        try await database.withStore { _ in }
        #expect(try appliedMigrations() == ["baseline"])
        #expect(SQLiteMigrations.all.map(\.name) == ["baseline"])
        // Opening again finds everything applied and changes nothing.
        try await database.withStore { _ in }
        #expect(try appliedMigrations() == ["baseline"])
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
