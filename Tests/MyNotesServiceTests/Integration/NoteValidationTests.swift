import MyNotesTesting
import Testing

/// docs/PROTOCOL.md's `id`, `date` and `content` rules, through the real server.
@Suite("Note validation")
struct NoteValidationTests {
    @Test(
        "An id that is not a positive integer in canonical form is -7",
        arguments: [
            "01", "001", "+1", "-1", " 1", "1 ", "1.0", "0", "0x1", "1e0", "１",
            "99999999999999999999", "9223372036854775808", "abc",
        ],
        ["modify", "remove"])
    func malformedID(id: String, action: String) throws {
        // Given an account whose note 1 exists,
        let fixture = try LegacyFixture()
        #expect(try fixture.add("keep") == "1")
        // when it is addressed by an id that only looks like 1 (or is out of range),
        let response = try fixture.post(
            parameters(["action": action, "id": id, "date": "2026-11-30", "content": "changed"]))
        // then the note is not found and stays as it was.
        #expect(try response.reply() == LegacyReply(resultCode: -7, message: "No such note."))
        #expect(try fixture.notes() == [.init(id: "1", date: "2026-11-29", content: "keep")])
    }

    @Test("The largest ID is well-formed, and simply not found")
    func largestID() throws {
        let fixture = try LegacyFixture()
        #expect(
            try fixture.post(parameters(["action": "remove", "id": "9223372036854775807"]))
                .resultCode == -7)
    }

    @Test(
        "Every valid date format is accepted and stored as documented",
        arguments: NoteRulesTests.validDates)
    func validDate(date: String, stored: String) throws {
        let fixture = try LegacyFixture()
        let id = try fixture.add("x", date: date)
        #expect(try fixture.notes() == [.init(id: id, date: stored, content: "x")])
        // And the same through modify.
        #expect(
            try fixture.post(
                parameters(["action": "modify", "id": id, "date": date, "content": "y"])
            ).resultCode == 0)
        #expect(try fixture.notes() == [.init(id: id, date: stored, content: "y")])
    }

    @Test(
        "Every malformed or impossible date is -8, by add and by modify",
        arguments: NoteRulesTests.invalidDates)
    func invalidDate(date: String) throws {
        let fixture = try LegacyFixture()
        let add = try fixture.post(parameters(["action": "add", "date": date, "content": "x"]))
        #expect(try add.reply() == LegacyReply(resultCode: -8, message: "Invalid parameter."))
        let id = try fixture.add("keep")
        #expect(
            try fixture.post(
                parameters(["action": "modify", "id": id, "date": date, "content": "x"])
            ).resultCode == -8)
        #expect(try fixture.notes() == [.init(id: id, date: "2026-11-29", content: "keep")])
    }

    @Test(
        "Content up to 65,536 bytes is stored; one byte more is -8",
        arguments: [
            (String(repeating: "a", count: 65_536), 0),
            (String(repeating: "中", count: 21_845) + "a", 0),
            (String(repeating: "&", count: 65_536), 0),
            (String(repeating: "a", count: 65_537), -8),
            (String(repeating: "中", count: 21_846), -8),
        ])
    func contentSize(content: String, expected: Int) throws {
        let fixture = try LegacyFixture()
        let add = try fixture.post(
            parameters(["action": "add", "date": "2026-11-29", "content": content]))
        #expect(add.resultCode == expected)
        #expect(try fixture.notes().map(\.content) == (expected == 0 ? [content] : []))
        let multipart = try fixture.postMultipart(
            parameters(["action": "add", "date": "2026-11-29", "content": content]))
        #expect(multipart.resultCode == expected)
    }

    @Test(
        "Control characters and U+FFFE/U+FFFF in content are -8",
        arguments: [
            "\u{0}", "\u{1}", "\u{8}", "\u{B}", "\u{C}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{FFFE}",
            "\u{FFFF}",
        ])
    func forbiddenCharacters(character: String) throws {
        let fixture = try LegacyFixture()
        let response = try fixture.post(
            parameters(["action": "add", "date": "2026-11-29", "content": "a\(character)b"]))
        #expect(response.resultCode == -8)
        #expect(try fixture.notes().isEmpty)
    }

    @Test(
        "Tab, LF, CR and other characters are allowed in content",
        arguments: [
            "\t", "\n", "\r", "\r\n", "\u{80}", "\u{9F}", "\u{85}", "\u{2028}", "\u{FEFF}",
            "\u{FFFD}", "\u{10FFFF}", " ",
        ])
    func allowedCharacters(character: String) throws {
        let fixture = try LegacyFixture()
        let response = try fixture.post(
            parameters(["action": "add", "date": "2026-11-29", "content": "a\(character)b"]))
        #expect(response.resultCode == 0)
        #expect(try fixture.notes().map(\.content) == ["a\(character)b"])
    }

    @Test("Content of spaces only is content")
    func spacesOnly() throws {
        let fixture = try LegacyFixture()
        #expect(try fixture.add(" ") == "1")
        #expect(try fixture.notes().map(\.content) == [" "])
    }
}
