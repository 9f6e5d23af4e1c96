/// A seeded generator, so that a failing property test fails the same way every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random text that stresses percent-encoding: delimiters, lone `%`, escapes that look
/// real, emoji (with ZWJ and skin tones), CJK, combining marks and other planes.
enum RandomText {
    static let pieces: [String] = [
        "a", "Z", "0", " ", "%", "%2", "%41", "%zz", "+", "&", "=", "#", "?", "/", "~", "*",
        "-", ".", "_", "!", "$", "'", "(", ")", ",", ";", ":", "@", "[", "]", "\"", "<", ">",
        "\\", "^", "`", "{", "|", "}", "\t", "\n", "\r\n", "\u{0}", "\u{7F}", "é", "e\u{301}",
        "\u{0301}", "日本語", "笔记", "한국어", "😀", "👩‍👩‍👧‍👦", "👍🏽", "🇨🇳", "\u{FEFF}", "\u{FFFD}",
        "\u{10FFFF}", "\u{E000}", "ß", "Ω", "\u{200B}",
    ]

    static func string(using generator: inout SplitMix64) -> String {
        let length = Int(generator.next() % 24)
        var text = ""
        for _ in 0..<length {
            if generator.next() % 4 == 0 {
                let scalar = randomScalar(using: &generator)
                text.unicodeScalars.append(scalar)
            } else {
                text += pieces[Int(generator.next() % UInt64(pieces.count))]
            }
        }
        return text
    }

    private static func randomScalar(using generator: inout SplitMix64) -> Unicode.Scalar {
        while true {
            let value = UInt32(generator.next() % 0x11_0000)
            if let scalar = Unicode.Scalar(value) { return scalar }
        }
    }
}
