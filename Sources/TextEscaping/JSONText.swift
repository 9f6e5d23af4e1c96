/// JSON string literals, written straight into a byte buffer. Non-ASCII text is kept as
/// raw UTF-8; escaped are the control characters, `"` and `\` (what JSON requires) and
/// DEL, which the legacy protocol's answers have always escaped, as `\"`, `\\`, `\n`,
/// `\r`, `\t` or `\u00xx` in lowercase. Every JSON the server and the `mynotes` client
/// write escapes alike, and the legacy answers stay byte for byte what they were.
///
/// ```swift
/// JSONText.quoted("say \"hi\"\n\u{7F}")  // #""say \"hi\"\n\u007f""#
/// var out: [UInt8] = []
/// JSONText.appendString("日本", to: &out)  // the bytes of #""日本""#
/// ```
public enum JSONText {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string literal, quotes included.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { appendEscaped($0, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string literal, quotes included, for code that builds strings.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        appendString(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Copies the runs between escapes in one go. A page of long notes is megabytes, and
    /// looking at them a byte at a time took 5 of a 5.5 MB search page's 29 ms.
    private static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var run = 0
        var index = firstEscape(in: text, from: 0)
        while index < text.count {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<index]))
            appendEscape(of: text[index], to: &out)
            run = index + 1
            index = firstEscape(in: text, from: run)
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: text[run...]))
    }

    /// The index of the first byte from `start` on that JSON requires escaped, or the
    /// text's end; eight bytes at a time while none of them is one.
    private static func firstEscape(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = text.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= text.count,
                !anyNeedsEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
            }
        }
        while index < text.count, !needsEscape(text[index]) { index += 1 }
        return index
    }

    /// Whether any of a word's eight bytes needs an escape, by the bit tricks for "a byte
    /// below n" (`(x - n·0x01…) & ~x & 0x80…`, n ≤ 128) and "a zero byte" (n = 1, after
    /// an XOR with the byte sought). Borrows can mark other bytes too, but the result is
    /// nonzero exactly when some byte qualifies, which is all this asks.
    private static func anyNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func anyBelow(_ x: UInt64, _ bound: UInt64) -> UInt64 {
            (x &- ones &* bound) & ~x & highBits
        }
        let control = anyBelow(word, 0x20)
        let quote = anyBelow(word ^ (ones &* 0x22), 1)
        let backslash = anyBelow(word ^ (ones &* 0x5C), 1)
        let delete = anyBelow(word ^ (ones &* 0x7F), 1)
        return control | quote | backslash | delete != 0
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    private static func appendEscape(of byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            out.append(contentsOf: "u00".utf8)
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
    }
}
