import PercentEncoding

/// Decodes `application/x-www-form-urlencoded` text (query strings and form bodies)
/// the way PHP fills `$_GET` and `$_POST`, which clients written for PHP servers rely on.
///
/// Pairs are separated by `&`; only the first `=` separates a name from its value;
/// names and values are decoded by ``PercentDecoder/form`` leniently: `+` is a space and
/// `%XX` is one byte; a malformed escape (`%`, `%4`, `%zz`) stays as the literal
/// characters. Pairs with an empty name are dropped, as PHP drops them.
///
/// ```swift
/// FormDecoder.decode(Array("content=a%26b+c&x=%zz".utf8))
/// // [FormField("content", "a&b c"), FormField("x", "%zz")]
/// ```
public enum FormDecoder {
    public static func decode(_ text: [UInt8]) -> [FormField] {
        text.withUnsafeBufferPointer { decode($0) }
    }

    // Concrete buffer types, not generics: this runs on every request, and an
    // unspecialized generic across a module boundary costs several times more.
    public static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [FormField] {
        let decoder = PercentDecoder.form
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
                        name: decoder.decodeBytesLeniently(rebasing(text, start..<nameEnd)),
                        value: decoder.decodeBytesLeniently(rebasing(text, valueStart..<end))))
            }
            start = end + 1
        }
        return fields
    }

    private static func rebasing(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[range])
    }
}
