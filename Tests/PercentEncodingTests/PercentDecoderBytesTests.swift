import PercentEncoding
import Testing

/// The lenient decoder on bytes, which the server decodes queries, form bodies and path
/// segments with, and which the `String` forms decode through.
@Suite("PercentDecoder on bytes")
struct PercentDecoderBytesTests {
    static let decoders = [
        PercentDecoder.url, .form, PercentDecoder(keepingEscaped: "/%"),
        PercentDecoder(plus: .space, keepingEscaped: "+&="),
    ]

    /// PHP's `urldecode` a byte at a time, appending to an array: what the decoder must
    /// give, however it is written.
    static func reference(_ input: [UInt8], _ decoder: PercentDecoder) -> [UInt8] {
        func hex(_ byte: UInt8) -> UInt8? {
            UInt8(String(decoding: [byte], as: UTF8.self), radix: 16)
        }
        var output: [UInt8] = []
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.count,
                let high = hex(input[index + 1]), let low = hex(input[index + 2])
            {
                let decoded = high << 4 | low
                let kept = decoded < 0x80 && decoder.keepingEscaped.contains(decoded)
                output += kept ? Array(input[index...(index + 2)]) : [decoded]
                index += 3
            } else {
                let plus = input[index] == UInt8(ascii: "+") && decoder.plus == .space
                output.append(plus ? UInt8(ascii: " ") : input[index])
                index += 1
            }
        }
        return output
    }

    /// The three forms of the same input: a `String` (when it is UTF-8), an array, and a
    /// buffer that is a slice of a larger one.
    static func decodedEachWay(_ input: [UInt8], _ decoder: PercentDecoder) -> [[UInt8]] {
        let padded = [UInt8]("x&".utf8) + input + [UInt8]("&y".utf8)
        var results = [
            decoder.decodeBytesLeniently(input),
            padded.withUnsafeBufferPointer {
                decoder.decodeBytesLeniently(
                    UnsafeBufferPointer(rebasing: $0[2..<(2 + input.count)]))
            },
        ]
        if let text = String(validating: input, as: UTF8.self) {
            results.append(decoder.decodeBytesLeniently(text))
        }
        return results
    }

    @Test(
        "Keeps malformed escapes as the literal characters",
        arguments: [
            ("%", "%"), ("%4", "%4"), ("%zz", "%zz"), ("%4g", "%4g"), ("%g4", "%g4"),
            ("a%", "a%"), ("%%41", "%A"), ("%%", "%%"), ("100%", "100%"), ("%2", "%2"),
            ("50%%20off", "50% off"), ("%%%", "%%%"), ("%2%2af", "%2*f"),
        ])
    func malformedEscapes(input: String, expected: String) {
        for decoded in Self.decodedEachWay(Array(input.utf8), .form) {
            #expect(decoded == Array(expected.utf8))
        }
    }

    @Test("Plus is a space only in form decoding, and an escaped plus is a plus")
    func plus() {
        #expect(PercentDecoder.form.decodeBytesLeniently(Array("a+b".utf8)) == Array("a b".utf8))
        #expect(PercentDecoder.url.decodeBytesLeniently(Array("a+b".utf8)) == Array("a+b".utf8))
        #expect(PercentDecoder.form.decodeBytesLeniently(Array("%2B".utf8)) == Array("+".utf8))
    }

    @Test("Decoded bytes are kept as bytes, valid UTF-8 or not")
    func rawBytes() {
        #expect(
            PercentDecoder.form.decodeBytesLeniently(Array("%00%7f%FF".utf8)) == [0, 0x7F, 0xFF])
        // Bytes that are not UTF-8 pass through as they are.
        #expect(PercentDecoder.url.decodeBytesLeniently([0xC3, 0x25, 0x34, 0x31]) == [0xC3, 0x41])
    }

    @Test("Escapes of kept characters stay as written, in either case")
    func keepingEscaped() {
        let decoder = PercentDecoder(keepingEscaped: "/%")
        #expect(
            decoder.decodeBytesLeniently(Array("a%2fb%2Fc%20d%25%".utf8))
                == Array("a%2fb%2Fc d%25%".utf8))
    }

    @Test("Empty input decodes to nothing, whichever form")
    func empty() {
        for decoder in Self.decoders {
            #expect(Self.decodedEachWay([], decoder).allSatisfy { $0.isEmpty })
        }
    }

    @Test(
        "Every form decodes random text as PHP's urldecode, a byte at a time, would",
        arguments: [7, 8, 9] as [UInt64])
    func agreesWithReference(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<1_000 {
            let text = Array(RandomText.string(using: &generator).utf8)
            // Some inputs that are not UTF-8 too: a byte flipped to 0x80 and above.
            var bytes = text
            if !bytes.isEmpty, generator.next() % 4 == 0 {
                bytes[Int(generator.next() % UInt64(bytes.count))] |= 0x80
            }
            for input in [text, bytes] {
                for decoder in Self.decoders {
                    let expected = Self.reference(input, decoder)
                    for decoded in Self.decodedEachWay(input, decoder) {
                        #expect(decoded == expected, "\(input)")
                    }
                }
            }
        }
    }
}
