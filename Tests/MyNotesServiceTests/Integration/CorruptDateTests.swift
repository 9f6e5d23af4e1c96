import Foundation
import MyNotesTesting
import Testing

/// A note whose stored date is no date (a database edited by hand, or damaged) fails the
/// query that reads it as any store failure does, with -3, and the server goes on: a new
/// date mends the row, and the same query answers again.
@Suite("A stored date that is no date", .onTestThreads)
struct CorruptDateTests {
    @Test("fails the query with -3, and a new date mends the note")
    func queryFailsUntilTheNoteIsRedated() throws {
        let fixture = try LegacyFixture(over: .socket, backend: .sqlite)
        let id = try fixture.add("Kept")
        try BulkNotes.execute(
            "UPDATE notes SET date = '2026-02-30' WHERE id = \(id)",
            on: QueryAnswerCacheTests.databasePath(of: fixture))

        #expect(try fixture.get([Parameter("action", "query")]).resultCode == -3)
        #expect(
            try fixture.get([Parameter("action", "query"), Parameter("type", "xml")]).document
                .contains("<ResultCode>-3</ResultCode>"))

        let reply = try fixture.post([
            Parameter("action", "modify"), Parameter("id", id),
            Parameter("date", "2026-11-30"), Parameter("content", "Kept"),
        ]).reply()
        #expect(reply.resultCode == 0)
        #expect(try fixture.notes() == [.init(id: id, date: "2026-11-30", content: "Kept")])
    }
}
