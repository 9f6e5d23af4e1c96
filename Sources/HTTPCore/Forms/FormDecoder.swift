/// Decodes `application/x-www-form-urlencoded` text (query strings and form bodies)
/// the way PHP fills `$_GET` and `$_POST`, which old MyNotes clients rely on.
///
/// Pairs are separated by `&`; only the first `=` separates a name from its value;
/// `+` is a space and `%XX` is one byte; a malformed escape (`%`, `%4`, `%zz`) stays
/// as the literal characters. Pairs with an empty name are dropped, as PHP drops them.
///
/// ```swift
/// FormDecoder.decode(Array("content=a%26b+c&x=%zz".utf8))
/// // [FormField("content", "a&b c"), FormField("x", "%zz")]
/// ```
public enum FormDecoder {
    /// Whether `+` stands for a space: it does in form encoding, not in a URL path.
    public enum PlusHandling: Sendable { case asSpace, no }

    public static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> [FormField] {
        var fields: [FormField] = []
        for pair in text.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = pair[..<(equals ?? pair.endIndex)]
            if rawName.isEmpty { continue }
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? pair[pair.endIndex...]
            fields.append(
                FormField(
                    name: percentDecode(rawName, plusAsSpace: .asSpace),
                    value: percentDecode(rawValue, plusAsSpace: .asSpace)))
        }
        return fields
    }

    /// Percent-decodes bytes leniently: malformed escapes are kept literally.
    public static func percentDecode<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, plusAsSpace: PlusHandling
    ) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                if first != bytes.endIndex, let high = hexValue(bytes[first]) {
                    let second = bytes.index(after: first)
                    if second != bytes.endIndex, let low = hexValue(bytes[second]) {
                        output.append(high << 4 | low)
                        index = bytes.index(after: second)
                        continue
                    }
                }
                output.append(byte)
            } else if byte == UInt8(ascii: "+"), plusAsSpace == .asSpace {
                output.append(UInt8(ascii: " "))
            } else {
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        return output
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
