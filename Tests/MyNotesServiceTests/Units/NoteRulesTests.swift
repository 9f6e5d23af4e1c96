import MyNotesDomain
import MyNotesProtocol
import Testing

@testable import MyNotesService

/// The date, content and ID rules of docs/PROTOCOL.md, checked without a server.
@Suite("Note rules")
struct NoteRulesTests {
    /// Dates the protocol accepts, and how they are stored.
    static let validDates: [(String, String)] = [
        ("2026-11-29", "2026-11-29"),
        ("2026-11-29 08:30", "2026-11-29 08:30:00"),
        ("2026-11-29 08:30:15", "2026-11-29 08:30:15"),
        ("2024-02-29", "2024-02-29"),
        ("2000-02-29 23:59:59", "2000-02-29 23:59:59"),
        ("0001-01-01", "0001-01-01"),
        ("9999-12-31 23:59", "9999-12-31 23:59:00"),
        ("2026-01-31", "2026-01-31"),
        ("2026-04-30", "2026-04-30"),
        ("2026-12-31 00:00:00", "2026-12-31 00:00:00"),
    ]

    /// Dates the protocol refuses with -8.
    static let invalidDates: [String] = [
        "2026-02-29", "1900-02-29", "2100-02-29", "0000-01-01", "2026-13-01", "2026-00-10",
        "2026-11-00", "2026-11-31", "2026-04-31", "2026-11-29 24:00", "2026-11-29 24:00:00",
        "2026-11-29 23:60", "2026-11-29 23:59:60", "2026-11-29 ", " 2026-11-29",
        "2026-11-29 08:30 ", "2026-11-29T08:30", "2026-11-29T08:30:00", "2026/11/29",
        "26-11-29", "2026-1-29", "2026-11-9", "2026-11-29 8:30", "2026-11-29 08:30:5",
        "20261129", "2026-11-29 08", "2026-11-29 08:30:00Z", "2026-11-29 08:30:00.000",
        "+026-11-29", "２０２６-11-29", "2026-11-29 08:30:00 ", "abcd-ef-gh", "10000-01-01",
        "2026-11-29  08:30", "2026-11-29\t08:30",
    ]

    @Test("Accepts every documented format; HH:mm is stored as HH:mm:00", arguments: validDates)
    func validDate(parameter: String, stored: String) {
        #expect(NoteDate(parameter)?.description == stored)
    }

    @Test("Refuses malformed and impossible dates", arguments: invalidDates)
    func invalidDate(parameter: String) {
        #expect(NoteDate(parameter) == nil)
    }

    @Test(
        "Knows which years are leap years",
        arguments: [
            (2024, 29), (2026, 28), (2000, 29), (1900, 28), (2100, 28), (2400, 29), (4, 29),
        ])
    func february(year: Int, days: Int) {
        #expect(NoteDate.days(inMonth: 2, year: year) == days)
    }

    @Test(
        "Content: at most 65,536 bytes, no control characters but tab, LF, CR, no U+FFFE/U+FFFF",
        arguments: [
            (String(repeating: "a", count: 65_536), true),
            (String(repeating: "a", count: 65_537), false),
            (String(repeating: "中", count: 21_845) + "a", true),  // 65,536 bytes
            (String(repeating: "中", count: 21_846), false),  // 65,538 bytes
            ("tab\t LF\n CR\r CRLF\r\n", true),
            ("nul\u{0}", false), ("bell\u{7}", false), ("esc\u{1B}", false), ("us\u{1F}", false),
            ("del\u{7F}", false), ("\u{FFFE}", false), ("\u{FFFF}", false),
            ("\u{80}\u{9F}", true), ("\u{FFFD}\u{FEFF}", true), ("😀 中文", true), (" ", true),
        ])
    func content(text: String, valid: Bool) {
        #expect(((try? NoteContent(validating: text)) != nil) == valid)
    }

    @Test(
        "Note IDs are decimal digits without sign, leading zero or spaces",
        arguments: [
            ("1", 1), ("12", 12), ("9223372036854775807", Int64.max), ("0", nil), ("01", nil),
            ("007", nil), ("-1", nil), ("+1", nil), (" 1", nil), ("1 ", nil), ("1.0", nil),
            ("1e3", nil), ("0x1F", nil), ("９", nil), ("9223372036854775808", nil),
            ("99999999999999999999999", nil), ("abc", nil),
        ] as [(String, Int64?)])
    func noteID(text: String, expected: Int64?) {
        #expect(NoteID(text)?.value == expected)
    }

    @Test(
        "Emails lose surrounding spaces only",
        arguments: [
            ("  a@example.com  ", "a@example.com"), ("   ", ""), ("", ""), ("a b", "a b"),
            ("\ta@example.com", "\ta@example.com"),
        ])
    func trimming(raw: String, trimmed: String) {
        #expect(Email.trimmingSpaces(raw) == trimmed)
    }
}
