import HTTPCore
import Testing

@Suite("FormDecoder")
struct FormDecoderTests {
    @Test(
        "Decodes pairs as PHP fills $_GET",
        arguments: [
            ("a=b", [["a", "b"]]),
            ("a=b&c=d", [["a", "b"], ["c", "d"]]),
            ("content=a=b", [["content", "a=b"]]),
            ("a==", [["a", "="]]),
            ("a", [["a", ""]]),
            ("a=", [["a", ""]]),
            ("=b", []),
            ("=", []),
            ("", []),
            ("&&a=1&&", [["a", "1"]]),
            ("a=1&a=2", [["a", "1"], ["a", "2"]]),
            ("a+b=c+d", [["a b", "c d"]]),
            ("%41%42=%61", [["AB", "a"]]),
            ("x=%2B%26%3D%25", [["x", "+&=%"]]),
            ("x=%e4%b8%ad", [["x", "中"]]),
            ("x=%E4%B8%AD", [["x", "中"]]),
            ("Content=1&content=2", [["Content", "1"], ["content", "2"]]),
            ("x=中文", [["x", "中文"]]),
        ])
    func decodes(input: String, expected: [[String]]) {
        // Given a query string, when it is decoded,
        let fields = FormDecoder.decode(Array(input.utf8))
        // then the pairs come out in order, names and values decoded.
        let decoded = fields.map {
            [String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self)]
        }
        #expect(decoded == expected)
    }

    @Test(
        "Keeps malformed escapes as the literal characters",
        arguments: [
            ("%", "%"), ("%4", "%4"), ("%zz", "%zz"), ("%4g", "%4g"), ("%g4", "%g4"),
            ("a%", "a%"), ("%%41", "%A"), ("%%", "%%"), ("100%", "100%"), ("%2", "%2"),
            ("50%%20off", "50% off"), ("%%%", "%%%"),
        ])
    func malformedEscapes(input: String, expected: String) {
        // As a value and as a name.
        #expect(FormDecoder.decode(Array("v=\(input)".utf8)) == [FormField("v", expected)])
        #expect(FormDecoder.decode(Array("\(input)=v".utf8)) == [FormField(expected, "v")])
    }

    @Test("Decoded bytes are kept as bytes, valid UTF-8 or not")
    func keepsRawBytes() {
        // %FF and %C3 alone are not UTF-8; judging that is the application's job.
        #expect(
            FormDecoder.decode(Array("a=%FF&%C3=b".utf8)) == [
                FormField(name: Array("a".utf8), value: [0xFF]),
                FormField(name: [0xC3], value: Array("b".utf8)),
            ])
        #expect(FormDecoder.decode(Array("%00=%7f".utf8)) == [FormField(name: [0], value: [0x7F])])
    }

    @Test("Decodes a buffer that is a slice of a larger one, as the array would be")
    func decodesBufferSlices() {
        // Given a target whose query starts mid-buffer,
        let target = Array("/p?a=%41+1&b=%zz%".utf8)
        let query = Array(target[3...])
        // when the buffer of only the query is decoded,
        let fields = target.withUnsafeBufferPointer {
            FormDecoder.decode(UnsafeBufferPointer(rebasing: $0[3...]))
        }
        // then it reads as the same bytes in an array of their own.
        #expect(fields == [FormField("a", "A 1"), FormField("b", "%zz%")])
        #expect(fields == FormDecoder.decode(query))
    }
}
