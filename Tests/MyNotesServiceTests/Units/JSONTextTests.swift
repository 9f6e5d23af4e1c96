import Foundation
import MyNotesDomain
import Testing

@testable import MyNotesService

@Suite("JSONText and JSONObjectWriter")
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

    @Test("Writes nested objects and arrays of them into one object")
    func nestedObjects() {
        var writer = JSONObjectWriter()
        writer.objects("notes", [1, 2]) { number, object in
            object.integer("id", Int64(number))
            if number == 2 { object.object("inner") { $0.string("note", nil) } }
        }
        writer.objects("none", [Int]()) { _, _ in }
        writer.object("empty") { _ in }
        writer.boolean("hasMore", false)
        writer.string("cursor", "a\"b")
        #expect(
            String(decoding: writer.finish(), as: UTF8.self)
                == #"{"notes":[{"id":1},{"id":2,"inner":{"note":null}}],"none":[],"#
                + #""empty":{},"hasMore":false,"cursor":"a\"b"}"#)
    }
}
