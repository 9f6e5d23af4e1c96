import MyNotesDomain
import MyNotesProtocol
import Testing

/// The text both stores order notes by: a date to the second, a bare day at its midnight.
@Suite("NoteDate's sort key")
struct NoteDateSortKeyTests {
    @Test(
        "A bare day sorts as its midnight; a time is written to the second",
        arguments: [
            ("2026-11-29", "2026-11-29 00:00:00"), ("2026-11-29 08:30", "2026-11-29 08:30:00"),
            ("0001-01-01 23:59:59", "0001-01-01 23:59:59"),
        ])
    func key(date: String, key: String) throws {
        #expect(try #require(NoteDate(date)).sortKey == key)
    }

    @Test("Keys compare as text in the order of the dates")
    func order() {
        let dates: [NoteDate] = [
            "2026-11-29 00:00:01", "2026-11-28 23:59:59", "2026-11-29", "2025-12-31", "0999-01-01",
        ]
        #expect(dates.sorted().map(\.sortKey) == dates.map(\.sortKey).sorted())
    }
}
