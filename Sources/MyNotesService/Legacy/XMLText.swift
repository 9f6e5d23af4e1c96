/// XML character data. CR is written as `&#13;` because XML parsers turn a raw CR
/// into LF, which would change a note's CRLF line ends.
enum XMLText {
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
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
}
