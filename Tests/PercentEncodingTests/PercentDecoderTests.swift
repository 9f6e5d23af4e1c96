import Foundation
import PercentEncoding
import Testing

@Suite("PercentDecoder")
struct PercentDecoderTests {
    @Test(
        "Strict decoding says what is wrong and where",
        arguments: [
            ("%", PercentDecodingError.Reason.truncatedEscape, 0, "%"),
            ("ab%4", .truncatedEscape, 2, "%4"),
            ("%zz", .invalidHexDigits, 0, "%zz"),
            ("x%4g", .invalidHexDigits, 1, "%4g"),
            ("é%é", .invalidHexDigits, 2, "%é"),
            ("%C3", .invalidUTF8, 0, "%C3"),
            ("ok%C3%28", .invalidUTF8, 2, "%C3"),
            ("a%FFb", .invalidUTF8, 1, "%FF"),
            ("%ED%A0%80", .invalidUTF8, 0, "%ED"),  // an encoded surrogate is not UTF-8
            ("%E6%97x", .invalidUTF8, 0, "%E6"),
        ])
    func strictErrors(
        input: String, reason: PercentDecodingError.Reason, offset: Int, excerpt: String
    ) {
        #expect(throws: PercentDecodingError(reason: reason, byteOffset: offset, excerpt: excerpt))
        {
            try PercentDecoder.url.decode(input)
        }
    }

    @Test("A continuation byte escaped after a raw lead is located at the escape")
    func mixedRawAndEscaped() throws {
        #expect(try PercentDecoder.url.decode("%E6%97%A5") == "日")
        let error = #expect(throws: PercentDecodingError.self) {
            try PercentDecoder.url.decode("日%A5")
        }
        #expect(error?.reason == .invalidUTF8)
        #expect(error?.byteOffset == 3)
    }

    @Test(
        "Lenient decoding keeps malformed escapes literally, as PHP's urldecode",
        arguments: [
            ("%", "%"), ("%4", "%4"), ("%zz", "%zz"), ("100%", "100%"), ("%%41", "%A"),
            ("%2%2af", "%2*f"), ("a+b", "a b"), ("%2B", "+"), ("%C2", "\u{FFFD}"),
        ])
    func lenient(input: String, expected: String) {
        #expect(PercentDecoder.form.decodeLeniently(input) == expected)
    }

    @Test("Lenient bytes are PHP's urldecode bytes, UTF-8 or not")
    func lenientBytes() {
        #expect(PercentDecoder.form.decodeBytesLeniently("%FF%41+%") == [0xFF, 0x41, 0x20, 0x25])
    }

    @Test("Escapes of kept characters stay as written")
    func keepingEscaped() throws {
        let decoder = PercentDecoder(keepingEscaped: "/%")
        #expect(try decoder.decode("a%2fb%2Fc%20d%25") == "a%2fb%2Fc d%25")
        #expect(decoder.decodeLeniently("%2F%") == "%2F%")
    }

    @Test("Plus is literal for URLs and a space for forms")
    func plus() throws {
        #expect(try PercentDecoder.url.decode("a+b") == "a+b")
        #expect(try PercentDecoder.form.decode("a+b") == "a b")
    }

    @Test("Never traps, and strict success means lenient agrees", arguments: [1, 2, 3] as [UInt64])
    func fuzz(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let alphabet = Array("%%%0123456789abcdefABCDEFgz+ é日😀\u{0}")
        for _ in 0..<3_000 {
            let length = Int(generator.next() % 12)
            let text = String(
                (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            for decoder in [PercentDecoder.url, .form, PercentDecoder(keepingEscaped: "%/")] {
                let lenient = decoder.decodeLeniently(text)
                if let strict = try? decoder.decode(text) {
                    #expect(strict == lenient, "\(text.debugDescription)")
                }
            }
        }
    }

    @Test("Agrees with Foundation's removingPercentEncoding on well-formed input")
    func agreesWithFoundation() throws {
        var generator = SplitMix64(seed: 99)
        for _ in 0..<1_000 {
            let text = RandomText.string(using: &generator)
            // corelibs-foundation drops a leading byte-order mark while decoding; we keep it.
            if text.unicodeScalars.first == "\u{FEFF}" { continue }
            let encoded = PercentEncoder.unreserved.encode(text)
            #expect(try PercentDecoder.url.decode(encoded) == encoded.removingPercentEncoding)
        }
    }
}
