import Foundation
import MyNotesTesting
import Testing

/// docs/PROTOCOL.md, "Responses": any conforming JSON or XML parser reads notes back unchanged.
@Suite("Round trips through standard parsers")
struct RoundTripTests {
    static let contents = [
        "Buy milk", "😀👍🏽👨‍👩‍👧", "中文，日本語、한국어", "CRLF\r\nLF\nCR\rend", "\r\n", "\ttab\t",
        "quote \" backslash \\ slash /", "<tag attr=\"v\">&amp; &#13; ]]></tag>",
        "\u{2028}\u{2029}",
        "\u{80}\u{FEFF}\u{FFFD}\u{10FFFF}", "  leading and trailing  ", "e\u{301} vs é",
    ]

    @Test("JSONSerialization and JSONDecoder read every note back unchanged", arguments: contents)
    func json(content: String) throws {
        let fixture = try LegacyFixture()
        let id = try fixture.add(content, date: "2026-11-29 08:30")
        let response = try fixture.get([Parameter("action", "query")])
        // JSONDecoder:
        #expect(
            try response.reply().record == [
                .init(id: id, date: "2026-11-29 08:30:00", content: content)
            ])
        // JSONSerialization, comparing scalars so that canonically equal strings do not pass for equal:
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        let record = (object?["Record"] as? [[String: Any]])?.first
        #expect(object?["ResultCode"] as? Int == 0)
        #expect(record?["ID"] as? String == id)
        #expect(
            (record?["Content"] as? String).map { Array($0.unicodeScalars) }
                == Array(content.unicodeScalars))
    }

    @Test("XMLParser reads every note back unchanged, CRLF included", arguments: contents)
    func xml(content: String) throws {
        let fixture = try LegacyFixture()
        let id = try fixture.add(content)
        let response = try fixture.get(parameters(["action": "query", "type": "XML"]))
        let reply = try XMLReply.parse(response.body)
        #expect(reply.resultCode == 0)
        #expect(reply.notes.count == 1)
        #expect(reply.notes.first?["ID"] == id)
        #expect(reply.notes.first?["CDate"] == "2026-11-29")
        #expect(
            reply.notes.first?["Content"].map { Array($0.unicodeScalars) }
                == Array(content.unicodeScalars))
    }

    @Test("XMLParser reads add answers and failure messages", arguments: ["zh", "en"])
    func xmlOtherAnswers(language: String) throws {
        let fixture = try LegacyFixture()
        let headers = ["Accept-Language: \(language)"]
        let added = try XMLReply.parse(
            fixture.post(
                parameters(["action": "add", "date": "2026-11-29", "content": "x", "type": "xml"]),
                headers: headers
            ).body)
        #expect(added.fields == ["ResultCode": "0", "ID": "1"])
        let failed = try XMLReply.parse(
            fixture.post(
                parameters(["action": "remove", "id": "2", "type": "xml"]), headers: headers
            ).body)
        #expect(
            failed.fields == [
                "ResultCode": "-7", "Message": language == "zh" ? "没有数据。" : "No such note.",
            ])
    }

    @Test("Several notes, escaped and not, parse as a list")
    func manyNotes() throws {
        let fixture = try LegacyFixture()
        for content in Self.contents { try fixture.add(content) }
        let expected = Array(Self.contents.reversed())
        #expect(try fixture.notes().map(\.content) == expected)
        let xml = try XMLReply.parse(
            fixture.get(parameters(["action": "query", "type": "xml"])).body)
        #expect(xml.notes.compactMap { $0["Content"] } == expected)
    }
}
