/// The characters an email may not hold, and the scripts whose letters a local part may
/// not mix: one table, read both by ``Email`` and by the OpenAPI document's `pattern`
/// (``pattern``), so that the two agree on every email.
///
/// Refused anywhere in an email: controls (C0, DEL, C1), bidirectional formatting marks,
/// and characters that show as nothing or as a space (spaces, NBSP, zero-width
/// characters, joiners, fillers, variation selectors, tags…). In the part before `@`,
/// letters of two scripts of ``scripts`` are refused unless they are Latin, Chinese,
/// Japanese or Korean together as those languages write (Unicode TR 39's "highly
/// restrictive" level): `аnn` with a Cyrillic `а` is refused, `名字` and `tanaka田中` are not.
/// Digits, punctuation and letters of scripts not listed go with any script.
///
/// ```swift
/// EmailCharacters.forbidden(in: "ann\u{202E}@x")  // (.bidiControl, U+202E)
/// EmailCharacters.scripts(of: "\u{430}nn")        // ["Cyrillic", "Latin"]
/// ```
package enum EmailCharacters {
    /// Why a character is refused.
    package enum Kind: Sendable, Hashable {
        case control
        case bidiControl
        case invisible
    }

    package static let forbidden: [(ClosedRange<UInt32>, Kind)] = [
        (0x0000...0x001F, .control), (0x0020...0x0020, .invisible),
        (0x007F...0x009F, .control), (0x00A0...0x00A0, .invisible),
        (0x00AD...0x00AD, .invisible), (0x034F...0x034F, .invisible),
        (0x061C...0x061C, .bidiControl), (0x115F...0x1160, .invisible),
        (0x1680...0x1680, .invisible), (0x17B4...0x17B5, .invisible),
        (0x180B...0x180F, .invisible), (0x2000...0x200D, .invisible),
        (0x200E...0x200F, .bidiControl), (0x2028...0x2029, .invisible),
        (0x202A...0x202E, .bidiControl), (0x202F...0x202F, .invisible),
        (0x205F...0x2065, .invisible), (0x2066...0x2069, .bidiControl),
        (0x206A...0x206F, .invisible), (0x3000...0x3000, .invisible),
        (0x3164...0x3164, .invisible), (0xFE00...0xFE0F, .invisible),
        (0xFEFF...0xFEFF, .invisible), (0xFFA0...0xFFA0, .invisible),
        (0xFFF0...0xFFFB, .invisible), (0x1_BCA0...0x1_BCA3, .invisible),
        (0x1_D173...0x1_D17A, .invisible), (0xE_0000...0xE_0FFF, .invisible),
    ]

    /// The scripts told apart, by code point ranges (their Unicode blocks, roughly).
    package static let scripts: [(name: String, ranges: [ClosedRange<UInt32>])] = [
        (
            "Latin",
            [
                0x0041...0x005A, 0x0061...0x007A, 0x00AA...0x00AA, 0x00BA...0x00BA,
                0x00C0...0x00D6, 0x00D8...0x00F6, 0x00F8...0x024F, 0x1E00...0x1EFF,
                0x212A...0x212B, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F,
                0xFB00...0xFB06, 0xFF21...0xFF3A, 0xFF41...0xFF5A,
            ]
        ),
        ("Greek", [0x0370...0x03FF, 0x1F00...0x1FFF, 0x2126...0x2126]),
        ("Cyrillic", [0x0400...0x052F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F]),
        ("Armenian", [0x0531...0x058F, 0xFB13...0xFB17]),
        ("Hebrew", [0x0591...0x05FF, 0xFB1D...0xFB4F]),
        (
            "Arabic",
            [0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFE]
        ),
        ("Georgian", [0x10A0...0x10FF, 0x1C90...0x1CBF, 0x2D00...0x2D2F]),
        ("Cherokee", [0x13A0...0x13FF, 0xAB70...0xABBF]),
        (
            "Hangul",
            [
                0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF,
                0xFFA0...0xFFDC,
            ]
        ),
        ("Hiragana", [0x3040...0x309F]),
        ("Katakana", [0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F]),
        ("Bopomofo", [0x3100...0x312F, 0x31A0...0x31BF]),
        (
            "Han",
            [
                0x2E80...0x2FDF, 0x3005...0x3007, 0x3021...0x3029, 0x3038...0x303B,
                0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x2_0000...0x3_134F,
            ]
        ),
    ]

    /// The scripts a local part may mix; any one script alone is fine too.
    package static let compatibleScripts: [Set<String>] = [
        ["Latin", "Han", "Hiragana", "Katakana"], ["Latin", "Han", "Bopomofo"],
        ["Latin", "Han", "Hangul"],
    ]

    /// The first refused character of `text` and why.
    package static func forbidden(in text: String) -> (Kind, Unicode.Scalar)? {
        for scalar in text.unicodeScalars {
            if let kind = forbidden.first(where: { $0.0.contains(scalar.value) })?.1 {
                return (kind, scalar)
            }
        }
        return nil
    }

    /// The listed scripts whose letters `text` holds, sorted by name.
    package static func scripts(of text: String) -> [String] {
        var found = Set<String>()
        for scalar in text.unicodeScalars {
            if let script = scripts.first(where: { script in
                script.ranges.contains { $0.contains(scalar.value) }
            }) {
                found.insert(script.name)
            }
        }
        return found.sorted()
    }

    /// Whether a local part holding letters of `found` mixes scripts it may not.
    package static func mixes(_ found: [String]) -> Bool {
        found.count > 1 && !compatibleScripts.contains { $0.isSuperset(of: found) }
    }

    // MARK: The pattern

    /// The email rule as an ECMAScript (and ICU, and Python) regular expression: spaces
    /// around it allowed, one `@`, no refused character, and a local part whose letters
    /// belong to one script or to one of ``compatibleScripts``.
    package static let pattern: String = {
        let refused = forbidden.map(\.0) + [0x40...0x40]
        let listed = scripts.map(\.name)
        var groups = compatibleScripts
        for name in listed where !compatibleScripts.contains(where: { $0.contains(name) }) {
            groups.append([name])
        }
        let locals = groups.map { group in
            let others = scripts.filter { !group.contains($0.name) }.flatMap(\.ranges)
            return "[^" + (refused + others).map(classRange).joined() + "]+"
        }
        let domain = "[^" + refused.map(classRange).joined() + "]+"
        return "^ *(?:" + locals.joined(separator: "|") + ")@" + domain + " *$"
    }()

    /// A range inside a character class: `\uXXXX` escapes in the Basic Multilingual
    /// Plane, the characters themselves beyond it (ECMAScript's `\u{…}` is not Python's).
    private static func classRange(_ range: ClosedRange<UInt32>) -> String {
        func character(_ value: UInt32) -> String {
            if value <= 0xFFFF {
                let hex = String(value, radix: 16, uppercase: true)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            return String(Character(Unicode.Scalar(value)!))
        }
        if range.lowerBound == range.upperBound { return character(range.lowerBound) }
        return character(range.lowerBound) + "-" + character(range.upperBound)
    }
}
