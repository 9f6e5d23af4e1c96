import Foundation
import MyNotesTesting
import Testing

/// A query's answer is kept and served again without the store, but only until a commit
/// it may depend on: this server's write to its account, or any commit of another process
/// writing to the same file (as `mynotes-server accounts …` does while the server runs).
/// `PerAccountAnswerCacheTests` show what other accounts' writes leave kept.
@Suite("Query answers kept until a commit they depend on", .onTestThreads)
struct QueryAnswerCacheTests {
    static func databasePath(of fixture: LegacyFixture) -> String {
        fixture.server.directory.appendingPathComponent("notes.sqlite").path
    }

    /// Adds a note through a connection of its own, as another process would.
    static func addElsewhere(_ content: String, to fixture: LegacyFixture) throws {
        try BulkNotes.insert(
            1, email: fixture.email, into: databasePath(of: fixture), date: "2026-11-30"
        ) { _ in content }
    }

    @Test("A repeated query is answered without the store, until something commits")
    func repeatedQueryNeedsNoStore() throws {
        let fixture = try LegacyFixture(over: .socket, backend: .sqlite, clock: ManualClock())
        try fixture.add("Kept")
        let first = try fixture.notes()
        #expect(first.map(\.content) == ["Kept"])

        // Every read now fails as a broken disk would: only a kept answer can succeed.
        fixture.server.failStore([.accountLookup, .notes])
        #expect(try fixture.notes() == first)

        // A commit by another process makes it stale: the store is asked again (and fails).
        try Self.addElsewhere("Elsewhere", to: fixture)
        #expect(try fixture.get([Parameter("action", "query")]).resultCode == -3)

        fixture.server.failStore([])
        #expect(try fixture.notes().map(\.content) == ["Elsewhere", "Kept"])
    }

    enum Writer: String, CaseIterable, Sendable {
        case legacyAdd, legacyModify, legacyRemove, otherProcessAdd
    }

    @Test("Every write shows in the next query", arguments: Writer.allCases)
    func writeShowsInNextQuery(writer: Writer) throws {
        let fixture = try LegacyFixture(over: .socket, backend: .sqlite)
        let id = try fixture.add("Before")
        #expect(try fixture.notes().map(\.content) == ["Before"])
        #expect(try fixture.notes().map(\.content) == ["Before"])  // kept now

        let expected: [String]
        switch writer {
        case .legacyAdd:
            try fixture.add("After", date: "2026-11-30")
            expected = ["After", "Before"]
        case .legacyModify:
            let reply = try fixture.post([
                Parameter("action", "modify"), Parameter("id", id),
                Parameter("date", "2026-11-29"), Parameter("content", "Changed"),
            ]).reply()
            #expect(reply.resultCode == 0)
            expected = ["Changed"]
        case .legacyRemove:
            let reply = try fixture.post([Parameter("action", "remove"), Parameter("id", id)])
                .reply()
            #expect(reply.resultCode == 0)
            expected = []
        case .otherProcessAdd:
            try Self.addElsewhere("After", to: fixture)
            expected = ["After", "Before"]
        }
        #expect(try fixture.notes().map(\.content) == expected)
    }

    @Test("A token replaced by another process stops working at once")
    func replacedTokenStopsAtOnce() throws {
        let fixture = try LegacyFixture(over: .socket, backend: .sqlite)
        try fixture.add("Private")
        #expect(try fixture.notes().count == 1)
        #expect(try fixture.notes().count == 1)  // kept now

        // What `mynotes-server accounts reset-token` does, from its own process.
        try BulkNotes.execute(
            "DELETE FROM tokens WHERE account_id = "
                + "(SELECT id FROM accounts WHERE email = '\(fixture.email)')",
            on: Self.databasePath(of: fixture))
        let reply = try fixture.get([Parameter("action", "query")]).reply()
        #expect(reply.resultCode == -9)
        #expect(reply.record == nil)
    }

    @Test("A wrong token is never answered from what a right one kept")
    func wrongTokenNeverHits() throws {
        let fixture = try LegacyFixture(over: .socket, backend: .sqlite)
        try fixture.add("Private")
        #expect(try fixture.notes().count == 1)
        let reply = try fixture.get(
            [Parameter("action", "query")],
            as: [Parameter("email", fixture.email), Parameter("token", "wrong")]
        ).reply()
        #expect(reply.resultCode == -9)
    }
}
