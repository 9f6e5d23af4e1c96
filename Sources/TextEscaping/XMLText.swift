/// XML character data: `&`, `<` and `>` as entities, and CR as `&#13;`, because XML
/// parsers turn a raw CR into LF, which would change a note's CRLF line ends. Quotes
/// stay as they are: this is text between tags, never an attribute's value.
///
/// ```swift
/// XMLText.escaped("a < b\r\n")  // "a &lt; b&#13;\n"
/// ```
public enum XMLText {
    /// Appends `text` escaped as XML character data.
    public static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case 0x0D: out.append(contentsOf: "&#13;".utf8)
            default: out.append(byte)
            }
        }
    }

    /// `text` escaped as XML character data, for code that builds strings.
    public static func escaped(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        appendEscaped(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
