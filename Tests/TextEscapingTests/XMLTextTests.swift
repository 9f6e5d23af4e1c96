import Foundation
import Testing
import TextEscaping

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("XMLText")
struct XMLTextTests {
    @Test(
        "Escapes markup and CR, and nothing else",
        arguments: [
            ("", ""), ("plain 日本 😀", "plain 日本 😀"), ("a & b", "a &amp; b"),
            ("<x>", "&lt;x&gt;"), ("CRLF\r\n", "CRLF&#13;\n"),
            ("\"quoted\" 'too'", "\"quoted\" 'too'"),
            ("]]>", "]]&gt;"),
        ])
    func escapes(text: String, expected: String) {
        #expect(XMLText.escaped(text) == expected)
        var out: [UInt8] = Array("<".utf8)
        XMLText.appendEscaped(text, to: &out)
        #expect(out == Array(("<" + expected).utf8))
    }

    @Test("A parser reads the text back unchanged, CR included")
    func roundTrips() throws {
        let text = "CRLF\r\nand CR\rand LF\n <xml> & \"json\" \\ ' ]]> 😀"
        let document = Data(("<a>" + XMLText.escaped(text) + "</a>").utf8)
        let reader = TextReader()
        let parser = XMLParser(data: document)
        parser.delegate = reader
        #expect(parser.parse())
        #expect(reader.text == text)
    }
}

/// Collects the character data of a document.
private final class TextReader: NSObject, XMLParserDelegate {
    var text = ""

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }
}
