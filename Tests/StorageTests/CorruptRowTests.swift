import MyNotesDomain
import StorageSupport
import Testing

@testable import PostgreSQLStore
@testable import SQLiteStore

/// A note whose stored date is no date (a hand-edited or damaged database) fails each read
/// that meets it with `StoreError.corruptRow`, which names the note and the text, instead
/// of trapping: the other notes still read, and a write of a new date mends the row.
@Suite struct CorruptRowTests {
    /// Writes `sql` straight into the database, as an operator editing it by hand would.
    static func handEdit(_ sql: String, in database: TemporaryStore) throws {
        switch database.location {
        case .sqlite(let path):
            try SQLiteConnection(path: path, mode: .readWrite).execute(sql)
        case .postgreSQL(let conninfo):
            try PostgreSQLConnection(conninfo: conninfo).execute(sql)
        }
    }

    /// Expects `read` to fail with a corrupt row that names note `id` and its date `text`.
    static func expectCorrupt(
        note id: Int64, text: String, _ what: String, _ read: () async throws -> Any,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            let value = try await read()
            Issue.record("\(what) read \(value)", sourceLocation: sourceLocation)
        } catch StoreError.corruptRow(let problem) {
            #expect(
                problem == "note \(id) has date \"\(text)\", not yyyy-MM-dd or yyyy-MM-dd HH:mm:ss",
                "\(what)", sourceLocation: sourceLocation)
            #expect(
                "\(StoreError.corruptRow(problem))" == "corrupt row: \(problem)",
                sourceLocation: sourceLocation)
        } catch {
            Issue.record(
                "\(what): expected a corrupt row, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: StoreBackend.all, ["2026-02-30", "2026-11-29 ", "29/11/2026", ""])
    func aStoredDateThatDoesNotParseFailsTheReadNotTheServer(
        backend: StoreBackend, text: String
    ) async throws {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        let (ann, good, bad) = try await database.withStore { store in
            let ann = try await store.createAccount(email: "ann@x", tokenHash: [1])
            let good = try await store.addNote(
                NoteDraft(date: "2026-11-28", content: "good kiwi"), account: ann.id,
                quota: .unlimited)
            let bad = try await store.addNote(
                NoteDraft(date: "2026-11-29 08:00:00", content: "bad kiwi"), account: ann.id,
                quota: .unlimited)
            return (ann, good, bad)
        }
        try Self.handEdit("UPDATE notes SET date = '\(text)' WHERE id = \(bad.id)", in: database)

        try await database.withStore { store in
            let page = NotePage(limit: 10)
            await Self.expectCorrupt(note: bad.id, text: text, "a page") {
                try await store.notes(account: ann.id, page: page)
            }
            await Self.expectCorrupt(note: bad.id, text: text, "the legacy query's read") {
                try await store.checkedNotes(
                    email: "ann@x", presenting: [1], admitting: { _ in true }, page: page)
            }
            await Self.expectCorrupt(note: bad.id, text: text, "a search") {
                try await store.notes(
                    account: ann.id, page: NotePage(limit: 10, containing: "kiwi"))
            }
            await Self.expectCorrupt(note: bad.id, text: text, "the note") {
                try await store.note(id: bad.id, account: ann.id) as Any
            }
            await Self.expectCorrupt(note: bad.id, text: text, "the change feed") {
                try await store.changes(account: ann.id, after: nil, limit: 10)
            }
            let copied = try #require(store as? any TransferableStore)
            await Self.expectCorrupt(note: bad.id, text: text, "a copy's rows") {
                try await copied.noteRows(after: 0, limit: 10)
            }

            // The store goes on: the other note reads, and a new date mends the row.
            #expect(try await store.note(id: good.id, account: ann.id)?.content == "good kiwi")
            let mended = try await store.updateNote(
                id: bad.id, account: ann.id, change: NoteChange(date: "2026-12-24"),
                precondition: .none, quota: .unlimited)
            guard case .applied(let note) = mended else {
                Issue.record("the new date was not written: \(mended)")
                return
            }
            #expect(note.date == "2026-12-24")
            #expect(
                try await store.notes(account: ann.id, page: page).map(\.content)
                    == ["bad kiwi", "good kiwi"])
        }
    }
}
