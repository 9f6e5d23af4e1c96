import Foundation
import MyNotesDomain
import MyNotesProtocol
import Testing

@testable import MyNotesService

@Suite("LegacyResponseWriter")
struct ResponseWriterTests {
    static let xmlHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response>"

    static func note(_ id: Int64, _ date: NoteDate, _ content: String) -> Note {
        Note(id: id, date: date, content: content, createdAt: 0, updatedAt: 0)
    }

    static func write(
        _ outcome: LegacyOutcome, _ format: WireFormat, language: MessageLanguage = .english,
        quota: Int = 0
    ) -> (contentType: String?, text: String) {
        let response = LegacyResponseWriter(format: format, language: language, quota: quota)
            .response(for: outcome)
        #expect(response.status.rawValue == 200)
        // One trailing newline is allowed after the document; compare without it.
        var text = String(decoding: response.body, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return (response.headers["Content-Type"], text)
    }

    @Test("Writes docs/PROTOCOL.md's JSON examples byte for byte")
    func jsonExamples() {
        let query = Self.write(.notes([Self.note(12, "2026-11-29", "Buy milk")]), .json)
        #expect(query.contentType == "application/json; charset=utf-8")
        #expect(
            query.text
                == #"{"ResultCode":0,"Record":[{"ID":"12","CDate":"2026-11-29","Content":"Buy milk"}]}"#
        )
        #expect(Self.write(.added(id: 13), .json).text == #"{"ResultCode":0,"ID":"13"}"#)
        #expect(Self.write(.done, .json).text == #"{"ResultCode":0}"#)
        #expect(
            Self.write(.failure(.noSuchNote), .json).text
                == #"{"ResultCode":-7,"Message":"No such note."}"#)
        #expect(Self.write(.notes([]), .json).text == #"{"ResultCode":0,"Record":[]}"#)
    }

    @Test("Writes docs/PROTOCOL.md's XML examples byte for byte")
    func xmlExamples() {
        let query = Self.write(.notes([Self.note(12, "2026-11-29", "Buy milk")]), .xml)
        #expect(query.contentType == "text/xml; charset=utf-8")
        #expect(
            query.text == Self.xmlHead
                + "<ResultCode>0</ResultCode><Record><Note><ID>12</ID><CDate>2026-11-29</CDate>"
                + "<Content>Buy milk</Content></Note></Record></Response>")
        #expect(
            Self.write(.added(id: 13), .xml).text == Self.xmlHead
                + "<ResultCode>0</ResultCode><ID>13</ID></Response>")
        #expect(
            Self.write(.done, .xml).text == Self.xmlHead
                + "<ResultCode>0</ResultCode></Response>"
        )
        #expect(
            Self.write(.failure(.noSuchNote), .xml).text == Self.xmlHead
                + "<ResultCode>-7</ResultCode><Message>No such note.</Message></Response>")
        #expect(
            Self.write(.notes([]), .xml).text == Self.xmlHead
                + "<ResultCode>0</ResultCode><Record></Record></Response>")
    }

    @Test(
        "Writes failures in the chosen language, the quota in -2",
        arguments: ResultCode.allCases.filter { !$0.isSuccess })
    func failureMessages(code: ResultCode) {
        for language in MessageLanguage.allCases {
            let message = code.message(in: language, quota: 4)
            #expect(
                Self.write(.failure(code), .json, language: language, quota: 4).text
                    == #"{"ResultCode":\#(code.rawValue),"Message":"\#(message)"}"#)
            #expect(
                Self.write(.failure(code), .xml, language: language, quota: 4).text
                    == Self.xmlHead
                    + "<ResultCode>\(code.rawValue)</ResultCode><Message>\(message)</Message></Response>"
            )
        }
    }

    @Test(
        "Escapes JSON strings so any parser reads them back",
        arguments: [
            ("a\"b\\c", #""a\"b\\c""#),
            ("l1\nl2\r\n\tx", #""l1\nl2\r\n\tx""#),
            ("\u{1}\u{1F}\u{7F}", #""\u0001\u001f\u007f""#),
            ("/ </script>", #""/ </script>""#),
            ("中文 😀", "\"中文 😀\""),
        ])
    func jsonEscaping(content: String, literal: String) throws {
        let text = Self.write(.notes([Self.note(1, "2026-01-01", content)]), .json).text
        #expect(text.contains(#""Content":\#(literal)}"#))
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let record = (object?["Record"] as? [[String: Any]])?.first
        #expect(record?["Content"] as? String == content)
    }

    @Test(
        "Escapes XML text, CR as &#13;",
        arguments: [
            ("a & b < c > d", "a &amp; b &lt; c &gt; d"),
            ("l1\r\nl2\rl3\n", "l1&#13;\nl2&#13;l3\n"),
            ("\"quoted\" 'single'", "\"quoted\" 'single'"),
            ("tab\there", "tab\there"),
            ("&amp;", "&amp;amp;"),
            ("中文 😀", "中文 😀"),
        ])
    func xmlEscaping(content: String, escaped: String) {
        let text = Self.write(.notes([Self.note(1, "2026-01-01", content)]), .xml).text
        #expect(text.contains("<Content>\(escaped)</Content>"))
    }

    @Test("Lists notes in the order given, with dates as stored")
    func severalNotes() {
        let notes = [Self.note(3, "2026-11-29 08:30:00", "b"), Self.note(2, "2026-11-28", "a")]
        #expect(
            Self.write(.notes(notes), .json).text
                == #"{"ResultCode":0,"Record":[{"ID":"3","CDate":"2026-11-29 08:30:00","Content":"b"},"#
                + #"{"ID":"2","CDate":"2026-11-28","Content":"a"}]}"#)
    }
}
