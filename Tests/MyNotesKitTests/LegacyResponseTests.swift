import Foundation
import MyNotesProtocol
import Testing

@testable import MyNotesKit

/// Reading the protocol's answers, byte for byte as docs/PROTOCOL.md shows them.
@Suite("Reading protocol answers")
struct LegacyResponseTests {
    static func read(_ text: String, _ format: WireFormat) -> Result<
        LegacyResponse, NotesClientError
    > {
        Result { () throws(NotesClientError) in
            try LegacyResponse.decode(Data(text.utf8), format: format).validated()
        }
    }

    @Test(
        "A query answer, in JSON and in XML",
        arguments: [
            (
                #"{"ResultCode":0,"Record":[{"ID":"12","CDate":"2026-11-29","Content":"Buy milk"}]}"#,
                WireFormat.json
            ),
            (
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <Response><ResultCode>0</ResultCode><Record><Note><ID>12</ID><CDate>2026-11-29</CDate><Content>Buy milk</Content></Note></Record></Response>

                """, .xml
            ),
        ])
    func query(body: String, format: WireFormat) throws {
        let response = try Self.read(body, format).get()
        #expect(
            response.notes == [Note(id: 12, date: NoteDate("2026-11-29"), content: "Buy milk")])
    }

    @Test("An empty account is an empty list, not a failure", arguments: WireFormat.allCases)
    func empty(format: WireFormat) throws {
        let body =
            format == .json
            ? #"{"ResultCode":0,"Record":[]}"#
            : "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><ResultCode>0</ResultCode><Record></Record></Response>"
        #expect(try Self.read(body, format).get().notes == [])
    }

    @Test("XML escapes come back as the text: &amp; &lt; &gt; and CR as &#13;")
    func xmlEscapes() throws {
        let body =
            "<Response><ResultCode>0</ResultCode><Record><Note><ID>1</ID><CDate>2026-11-29 10:00:00</CDate>"
            + "<Content>a &amp; b &lt;c&gt;&#13;\nd 日本 😀</Content></Note></Record></Response>"
        let note = try #require(try Self.read(body, .xml).get().notes?.first)
        #expect(note.content == "a & b <c>\r\nd 日本 😀")
        #expect(note.date.description == "2026-11-29 10:00:00")
    }

    @Test("JSON \\u escapes and raw UTF-8 read the same")
    func jsonUnicode() throws {
        let body =
            #"{"ResultCode":0,"Record":[{"ID":"3","CDate":"2026-11-29","Content":"\u65e5\ud83d\ude00 日😀"}]}"#
        #expect(try Self.read(body, .json).get().notes?.first?.content == "日😀 日😀")
    }

    @Test(
        "Add answers carry the new ID",
        arguments: [
            (#"{"ResultCode":0,"ID":"13"}"#, WireFormat.json),
            ("<Response><ResultCode>0</ResultCode><ID>13</ID></Response>\n", .xml),
        ])
    func add(body: String, format: WireFormat) throws {
        #expect(try Self.read(body, format).get().id == 13)
    }

    @Test(
        "Every failing code becomes the typed error with its message",
        arguments: ResultCode.allCases.filter { !$0.isSuccess }, WireFormat.allCases)
    func failures(code: ResultCode, format: WireFormat) {
        let message = code.message(in: .english, quota: 5)
        let body =
            format == .json
            ? #"{"ResultCode":\#(code.rawValue),"Message":"\#(message)"}"#
            : "<Response><ResultCode>\(code.rawValue)</ResultCode><Message>\(message)</Message></Response>"
        guard case .failure(let error) = Self.read(body, format) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.resultCode == code)
        #expect(error.message(in: .chinese) == code.message(in: .chinese, quota: 5))
        #expect(error.message(in: .english) == message)
    }

    @Test("An unknown negative code is reported, not mistaken for success")
    func unknownCode() {
        guard
            case .failure(.invalidResponse(.unknownResultCode(-42, "Future"))) = Self.read(
                #"{"ResultCode":-42,"Message":"Future"}"#, .json)
        else {
            Issue.record("expected unknownResultCode")
            return
        }
    }

    @Test(
        "Bodies that are not protocol answers are malformed",
        arguments: [
            ("<html>oops</html>", WireFormat.json), ("", .json), (#"{"Record":[]}"#, .json),
            ("{\"ResultCode\":0}", .xml), ("<Response><Message>x</Message></Response>", .xml),
            ("<Response><ResultCode>0</ResultCode>", .xml),
        ])
    func malformed(body: String, format: WireFormat) {
        guard case .failure(.invalidResponse(.malformed)) = Self.read(body, format) else {
            Issue.record("expected malformed for \(body)")
            return
        }
    }

    @Test("A note with an invalid date is reported")
    func invalidDate() {
        let body = #"{"ResultCode":0,"Record":[{"ID":"1","CDate":"2026-02-30","Content":"x"}]}"#
        guard case .failure(.invalidResponse(.invalidDate("2026-02-30"))) = Self.read(body, .json)
        else {
            Issue.record("expected invalidDate")
            return
        }
    }
}
