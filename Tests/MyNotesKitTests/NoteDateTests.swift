import Foundation
import MyNotesKit
import Testing

@Suite("NoteDate")
struct NoteDateTests {
    @Test(
        "Parses the three protocol forms and prints the stored form",
        arguments: [
            ("2026-11-29", "2026-11-29"), ("2026-11-29 14:30", "2026-11-29 14:30:00"),
            ("2026-11-29 23:59:59", "2026-11-29 23:59:59"), ("2024-02-29", "2024-02-29"),
            ("2000-02-29 00:00", "2000-02-29 00:00:00"), ("0001-01-01", "0001-01-01"),
            ("9999-12-31 23:59:59", "9999-12-31 23:59:59"),
        ])
    func valid(text: String, stored: String) {
        #expect(NoteDate(text)?.description == stored)
    }

    @Test(
        "Rejects what the server rejects",
        arguments: [
            "", "2026-11-29 ", " 2026-11-29", "2026-2-1", "2026/11/29", "2026-13-01", "2026-00-10",
            "2026-11-31", "2023-02-29", "1900-02-29", "0000-01-01", "2026-11-29 24:00",
            "2026-11-29 12:60", "2026-11-29 12:00:60", "2026-11-29T12:00", "2026-11-29 12",
            "２０２６-11-29",
        ])
    func invalid(text: String) {
        #expect(NoteDate(text) == nil)
    }

    @Test(
        "Parses UTF-8 bytes as it parses text, and appends the bytes of its description",
        arguments: [
            "2026-11-29", "2026-11-29 14:30", "2026-11-29 23:59:59", "0001-01-01", "2026-13-01",
            "2026-11-29 ", "", "2026-11-29T12:00",
        ])
    func bytes(text: String) {
        let parsed = Array(text.utf8).withUnsafeBufferPointer { NoteDate(utf8: $0) }
        #expect(parsed == NoteDate(text))
        guard let parsed else { return }
        var out = Array("CDate=".utf8)
        parsed.appendText(to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "CDate=" + parsed.description)
        #expect(parsed.utf8Count == parsed.description.utf8.count)
    }

    @Test("Orders as points in time; a bare day is its midnight")
    func ordering() {
        #expect(NoteDate("2026-11-29") < NoteDate("2026-11-29 00:00:01"))
        #expect(!(NoteDate("2026-11-29") < NoteDate("2026-11-29 00:00")))
        #expect(!(NoteDate("2026-11-29 00:00") < NoteDate("2026-11-29")))
        #expect(NoteDate("2026-11-29") != NoteDate("2026-11-29 00:00"))
    }

    @Test("Converts from and to Date in a given time zone")
    func dates() throws {
        let zone = try #require(TimeZone(identifier: "Asia/Shanghai"))
        let date = Date(timeIntervalSince1970: 1_764_400_000)  // 2025-11-29 07:06:40 UTC
        let note = NoteDate(date, timeZone: zone)
        #expect(note.description == "2025-11-29 15:06:40")
        #expect(note.date(in: zone) == date)
    }
}
