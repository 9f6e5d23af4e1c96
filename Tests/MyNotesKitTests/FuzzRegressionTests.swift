import Foundation
import MyNotesProtocol
import Testing

@testable import MyNotesKit

/// Answers that `scripts/fuzz.sh` found crashing the SDK, each now a clear error.
@Suite("Inputs found by fuzzing")
struct FuzzRegressionTests {
    /// FoundationXML traps on an element or attribute name that is not UTF-8
    /// (legacy-xml-response, 2026-12-01: the first input is the fuzzer's, shortened).
    @Test(
        "An XML answer that is not UTF-8 is malformed, not a crash",
        arguments: [
            Array("<Re".utf8) + [0xFF, 0xFF, 0xFF, 0xFF]
                + Array("sponse><ResultCode>0</ResultCode></Response>".utf8),
            Array("<R".utf8) + [0xFF] + Array("x/>".utf8),
            Array("<Response a".utf8) + [0xFF] + Array("=\"1\"/>".utf8),
            Array(#"<?xml version="1.0" encoding="UTF-8"?><R"#.utf8) + [0xC3, 0x28]
                + Array("/>".utf8),
            Array("<Response><ResultCode>0</ResultCode><Message>".utf8) + [0xED, 0xA0, 0x80]
                + Array("</Message></Response>".utf8),
        ])
    func xmlThatIsNotUTF8(body: [UInt8]) {
        Self.expectMalformedXML(Data(body), detail: "not UTF-8")
    }

    /// Reading `body` as XML fails as malformed, for `detail`.
    static func expectMalformedXML(_ body: Data, detail: String) {
        let error = #expect(throws: NotesClientError.self) {
            try LegacyResponse.decode(body, format: .xml)
        }
        guard case .invalidResponse(let reason)? = error else {
            Issue.record("expected an invalid response, got \(String(describing: error))")
            return
        }
        #expect(reason == .malformed(format: .xml, detail: detail))
    }

    /// FoundationXML dereferences NULL on a processing instruction without data
    /// (legacy-xml-response, 2026-12-01: the first input is the fuzzer's, shortened).
    @Test(
        "An XML answer with an empty processing instruction is malformed, not a crash",
        arguments: [
            "<Response>esponse>Sequenceo<?x?><Response><ResultCode>0</ResultCode></Response>",
            "<?xml version=\"1.0\"?><Response><?x?><ResultCode>0</ResultCode></Response>",
            "<Response><ResultCode>0</ResultCode><??></Response>",
        ])
    func emptyProcessingInstruction(body: String) {
        Self.expectMalformedXML(Data(body.utf8), detail: "a processing instruction without data")
    }

    @Test(
        "Processing instructions with data, and text that only looks like one, still parse",
        arguments: [
            "<Response><?x y?><ResultCode>0</ResultCode></Response>",
            "<Response><?x ?><ResultCode>0</ResultCode></Response>",
            "<Response><ResultCode>0</ResultCode><Message>&lt;?x?&gt;</Message></Response>",
        ])
    func harmlessProcessingInstructions(body: String) throws {
        #expect(try LegacyResponse.decode(Data(body.utf8), format: .xml).resultCode == 0)
    }

    /// DateFormatter traps on some text that is not ASCII (rest-response, 2026-12-01).
    @Test("A Retry-After that is not ASCII is no delay, not a crash")
    func retryAfterThatIsNotASCII() {
        #expect(RESTResponse.retryAfter("W\u{328}") == nil)
        #expect(RESTResponse.retryAfter("Wed, 21 Oct 2026 07:28:00 GMT\u{328}") == nil)
        #expect(RESTResponse.retryAfter("120") == .seconds(120))
    }

    @Test("UTF-8 checking accepts every well-formed text and nothing else")
    func utf8Check() {
        #expect(Data("<Note>日本語 😀</Note>".utf8).isValidUTF8)
        #expect(Data().isValidUTF8)
        #expect(!Data([0xC0, 0x80]).isValidUTF8)  // an overlong NUL
        #expect(!Data([0xF4, 0x90, 0x80, 0x80]).isValidUTF8)  // past U+10FFFF
        #expect(!Data([0xE6, 0x97]).isValidUTF8)  // cut short
    }
}
