/// Whether a body is JSON that `JSONDecoder` and `JSONSerialization` read alike: one
/// object, UTF-8 without a byte order mark, whose members have distinct ASCII names without
/// escapes and whose values are all strings that both accept (valid UTF-8, no control
/// characters, escapes that name no surrogate). That is every body the API's own clients
/// send; anything else (a number, `null`, a nested value, a repeated member, a trailing
/// comma, a syntax error) is simply not plain, and ``JSONRequestBody`` reads it the slow,
/// exact way. So names must never be given for a body that is not plain, while a `nil`
/// only costs time.
///
/// ```swift
/// JSONPlainObject.names(Array(#"{"content":"牛奶","date":"2026-11-29"}"#.utf8))
/// // ["content", "date"]
/// JSONPlainObject.names(Array(#"{"content":42}"#.utf8))  // nil
/// ```
enum JSONPlainObject {
    /// The member names of a plain object, in the body's order; `nil` for any other body.
    static func names(_ bytes: [UInt8]) -> [String]? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            guard scanner.object() else { return nil }
            return scanner.names.map { String(decoding: buffer[$0], as: UTF8.self) }
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// Names seen so far, as byte ranges: a body has a handful of members.
        var names: [Range<Int>] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func object() -> Bool {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return false }
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    guard name() else { return false }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return false }
                    skipWhitespace()
                    guard string() else { return false }
                    skipWhitespace()
                    if take(UInt8(ascii: "}")) { break }
                    guard take(UInt8(ascii: ",")) else { return false }
                    skipWhitespace()
                }
            }
            skipWhitespace()
            return index == bytes.count
        }

        /// A member name of printable ASCII, not seen before.
        mutating func name() -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let range = start..<index
                    index += 1
                    for seen in names where seen.count == range.count {
                        if bytes[seen].elementsEqual(bytes[range]) { return false }
                    }
                    names.append(range)
                    return true
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return false }
                index += 1
            }
            return false
        }

        /// A string value: printable ASCII, simple escapes, `\u` outside the surrogates,
        /// and well-formed UTF-8.
        mutating func string() -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            skipPlainWords()
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return true
                case UInt8(ascii: "\\"):
                    guard escape() else { return false }
                case 0x20..<0x80:
                    index += 1
                    skipPlainWords()
                case 0xC2...0xF4:
                    guard scalar() else { return false }
                default:
                    return false
                }
            }
            return false
        }

        /// Skips eight bytes at a time while all are printable ASCII other than `"` and
        /// `\`, the bulk of most notes; the byte loop takes what is left. Each test says
        /// whether any byte of the word is of a kind, never missing one (a false alarm
        /// only hands the word to the byte loop).
        mutating func skipPlainWords() {
            guard let base = bytes.baseAddress else { return }
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let special =
                    word | ((word &- ones &* 0x20) & ~word)
                    | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                if special & highs != 0 { return }
                index += 8
            }
        }

        mutating func escape() -> Bool {
            index += 1
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
                return true
            case UInt8(ascii: "u"):
                guard index + 4 < bytes.count else { return false }
                var value: UInt32 = 0
                for offset in 1...4 {
                    guard let digit = hexDigit(bytes[index + offset]) else { return false }
                    value = value << 4 | digit
                }
                index += 5
                return !(0xD800...0xDFFF).contains(value)
            default:
                return false
            }
        }

        /// One multi-byte UTF-8 scalar (Unicode Table 3-7), its lead byte at `index`.
        mutating func scalar() -> Bool {
            let lead = bytes[index]
            let count = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard index + count <= bytes.count else { return false }
            let second = bytes[index + 1]
            let secondRange: ClosedRange<UInt8> =
                switch lead {
                case 0xE0: 0xA0...0xBF
                case 0xED: 0x80...0x9F
                case 0xF0: 0x90...0xBF
                case 0xF4: 0x80...0x8F
                default: 0x80...0xBF
                }
            guard secondRange.contains(second) else { return false }
            for offset in 2..<count where !(0x80...0xBF).contains(bytes[index + offset]) {
                return false
            }
            index += count
            return true
        }

        func hexDigit(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
            default: nil
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}
