/// Decodes `application/x-www-form-urlencoded` text (query strings and form bodies)
/// the way PHP fills `$_GET` and `$_POST`, which clients written for PHP servers rely on.
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

    public static func decode(_ text: [UInt8]) -> [FormField] {
        text.withUnsafeBufferPointer { decode($0) }
    }

    // Concrete buffer types, not generics: this runs on every request, and an
    // unspecialized generic across a module boundary costs several times more.
    public static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [FormField] {
        var fields: [FormField] = []
        var start = 0
        while start <= text.count {
            var end = start
            var equals = -1
            while end < text.count, text[end] != UInt8(ascii: "&") {
                if equals < 0, text[end] == UInt8(ascii: "=") { equals = end }
                end += 1
            }
            let nameEnd = equals < 0 ? end : equals
            if nameEnd > start {
                let valueStart = equals < 0 ? end : equals + 1
                fields.append(
                    FormField(
                        name: percentDecode(rebasing(text, start..<nameEnd), plusAsSpace: .asSpace),
                        value: percentDecode(
                            rebasing(text, valueStart..<end), plusAsSpace: .asSpace)))
            }
            start = end + 1
        }
        return fields
    }

    /// Percent-decodes bytes leniently: malformed escapes are kept literally.
    public static func percentDecode(_ bytes: [UInt8], plusAsSpace: PlusHandling) -> [UInt8] {
        bytes.withUnsafeBufferPointer { percentDecode($0, plusAsSpace: plusAsSpace) }
    }

    public static func percentDecode(
        _ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: PlusHandling
    ) -> [UInt8] {
        // An array made with capacity 0 writes its count into the standard library's shared
        // empty-array storage, which ThreadSanitizer reports when two threads do it at once.
        guard !bytes.isEmpty else { return [] }
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { output, written in
            var index = 0
            var count = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                    let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                {
                    output[count] = high << 4 | low
                    index += 3
                } else {
                    output[count] =
                        byte == UInt8(ascii: "+") && plusAsSpace == .asSpace ? 0x20 : byte
                    index += 1
                }
                count += 1
            }
            written = count
        }
    }

    private static func rebasing(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[range])
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
