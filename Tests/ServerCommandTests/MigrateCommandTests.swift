import Foundation
import MyNotesDomain
import MyNotesTesting
import Storage
import Testing

/// `mynotes-server migrate`: SQLite to PostgreSQL and back, everything kept, verified.
@Suite(.postgreSQLInstalled)
struct MigrateCommandTests {
    /// Everything a store holds, as comparable values.
    static func contents(of location: StoreLocation) async throws -> [String] {
        let store = try location.open()
        defer { store.close() }
        var lines: [String] = []
        for account in try await store.allAccounts() {
            lines.append("\(account)")
            for session in try await store.sessions(account: account.id) {
                lines.append("  \(session)")
            }
            for note in try await store.notes(account: account.id, page: NotePage(limit: .max)) {
                lines.append("  \(note)")
            }
        }
        return lines
    }

    @Test func copiesSQLiteToPostgreSQLAndBackKeepingEverything() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let sqlite = StoreLocation.sqlite(
            path: database.directory.appendingPathComponent("notes.sqlite").path)
        let store = try sqlite.open()
        let ann = try await store.createAccount(
            email: "Ann@example.com", tokenHash: [1, 2], passwordHash: "pbkdf2$x")
        try await store.addToken([3, 4], account: ann.id, at: 1_700_000_000_000)
        let bob = try await store.createAccount(
            email: "bob@example.com", tokenHash: nil, passwordHash: nil)
        var removed: Int64 = 0
        for index in 0..<2_500 {
            let note = try await store.addNote(
                NoteDraft(date: "2026-11-\(10 + index % 20) 08:00:00", content: "note \(index) 中文"),
                account: index.isMultiple(of: 3) ? bob.id : ann.id, quota: .unlimited)
            if index == 7 { removed = note.id }
        }
        _ = try await store.removeNote(id: removed, account: ann.id, precondition: .none)
        _ = try await store.updateNote(
            id: removed + 1, account: ann.id, change: NoteChange(content: "edited"),
            precondition: .none, quota: .unlimited)
        store.close()
        let before = try await Self.contents(of: sqlite)

        let cluster = try #require(try PostgreSQLCluster.shared())
        let postgres = try cluster.createDatabase()
        let forth = try await CommandRunner.run(
            "mynotes-server", ["migrate", "--from", sqlite.description, "--to", postgres])
        #expect(forth.status == 0, "\(forth.standardError)")
        #expect(forth.standardOutput.contains("copied 2 accounts, 2 tokens and 2499 notes"))
        #expect(forth.standardError.contains("notes 2499/2499"))
        #expect(try await Self.contents(of: .postgreSQL(conninfo: postgres)) == before)

        // The copy works as the original did: tokens, and new IDs above the copied ones.
        let copied = try StoreLocation.postgreSQL(conninfo: postgres).open()
        #expect(try await copied.account(tokenHash: [3, 4])?.account.email == "Ann@example.com")
        let next = try await copied.addNote(
            NoteDraft(date: "2026-12-01", content: "after"), account: ann.id, quota: .unlimited)
        #expect(next.id > 2_500)
        guard
            case .applied = try await copied.removeNote(
                id: next.id, account: ann.id, precondition: .none)
        else { Issue.record("the new note could not be removed"); return }
        copied.close()

        // A target that holds data is refused, unless told.
        let again = try await CommandRunner.run(
            "mynotes-server", ["migrate", "--from", sqlite.description, "--to", postgres])
        #expect(again.status == 1)
        #expect(again.standardError.contains("not empty"))
        let forced = try await CommandRunner.run(
            "mynotes-server",
            ["migrate", "--from", sqlite.description, "--to", postgres, "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")

        // And back, into a new SQLite file.
        let back = StoreLocation.sqlite(
            path: database.directory.appendingPathComponent("back.sqlite").path)
        let returned = try await CommandRunner.run(
            "mynotes-server", ["migrate", "--from", postgres, "--to", back.description])
        #expect(returned.status == 0, "\(returned.standardError)")
        #expect(try await Self.contents(of: back) == before)
    }
}
