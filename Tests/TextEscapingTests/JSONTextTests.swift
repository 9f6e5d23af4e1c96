import Foundation
import Testing
import TextEscaping

@Suite("JSONText")
struct JSONTextTests {
    /// Every byte JSON requires escaped, and DEL, which the protocol's writer has always
    /// escaped too.
    static let escaped: [Unicode.Scalar] =
        (0..<0x20).map { Unicode.Scalar(UInt8($0)) } + ["\"", "\\", "\u{7F}"]

    /// The escapes a byte at a time, as the writer wrote them before it read words.
    static func reference(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out +=
                    "\\u00" + String(scalar.value >> 4, radix: 16)
                    + String(scalar.value & 0xF, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func written(_ text: String) -> String {
        var out: [UInt8] = []
        JSONText.appendString(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test(
        "Escapes each byte that needs it, wherever it falls in the words read",
        arguments: [
            "abcdefghijklmnopqrstuvwxy",  // ASCII: every offset of an 8-byte word
            "会议记录会议记录会议",  // three bytes a character
            "ß😀É ~ 0x7E 😀",  // two and four bytes, and the byte below DEL
            " !#$%&'()*+,-./0123[]^_`{|}",  // the neighbours of the escaped bytes
        ])
    func escapesAtEveryOffset(filler: String) {
        let scalars = Array(filler.unicodeScalars)
        for escape in Self.escaped {
            for position in 0...scalars.count {
                var view = String.UnicodeScalarView(scalars)
                view.insert(escape, at: view.index(view.startIndex, offsetBy: position))
                let text = String(view)
                #expect(Self.written(text) == Self.reference(text))
            }
        }
        #expect(Self.written(filler) == Self.reference(filler))
    }

    @Test("Writes text back as JSON reads it, escapes side by side and at the ends")
    func roundTrips() throws {
        let text =
            "\"\\\n\r\t\u{0}\u{1F}\u{7F}会\"\"\\\\ok\u{8}\u{C}😀" + String(repeating: "長", count: 40)
        for sample in [text, "", "\"", String(repeating: "\\", count: 17), text + text] {
            var out: [UInt8] = []
            JSONText.appendString(sample, to: &out)
            let read = try JSONSerialization.jsonObject(with: Data(out), options: .fragmentsAllowed)
            #expect(read as? String == sample)
            #expect(Self.written(sample) == Self.reference(sample))
        }
    }

    @Test("The string form is the bytes the buffer form writes")
    func quotedIsAppendString() {
        for sample in ["", "plain", "a\"b\\c\u{7F}\u{1}\n", "日本 😀 \u{2028}\u{2029}"] {
            #expect(JSONText.quoted(sample) == Self.written(sample))
        }
        // U+2028 and U+2029 are valid inside a JSON string and stay raw UTF-8, as the
        // server's answers have always had them.
        #expect(JSONText.quoted("\u{2028}") == "\"\u{2028}\"")
        #expect(JSONText.quoted("\u{7F}\u{1F}") == #""\u007f\u001f""#)
    }
}
