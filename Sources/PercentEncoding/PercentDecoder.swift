/// Decodes percent-encoded text.
///
/// Two ways to meet a malformed escape (`%`, `%4`, `%zz`):
/// ``decode(_:)`` is strict and throws a ``PercentDecodingError`` that says what
/// is wrong and at which byte; ``decodeLeniently(_:)`` keeps the malformed escape
/// as the literal characters, as PHP's `urldecode` does. Neither traps on any input.
///
/// ```swift
/// try PercentDecoder.url.decode("caf%C3%A9")          // "café"
/// PercentDecoder.form.decodeLeniently("100%+sure")     // "100% sure"
/// try PercentDecoder(keepingEscaped: "/").decode("a%2Fb%20c")  // "a%2Fb c"
/// ```
public struct PercentDecoder: Sendable, Hashable {
    /// How `+` is read.
    public var plus: PlusDecoding
    /// Characters whose escapes stay escaped, exactly as written
    /// (`CFURLCreateStringByReplacingPercentEscapes`'s `charactersToLeaveEscaped`).
    public var keepingEscaped: ASCIISet

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - plus: how to read `+`.
    ///   - keepingEscaped: characters whose escapes are left as they are, so that
    ///     a decoded `%2F` cannot turn into a path separator, for example.
    public init(plus: PlusDecoding = .literal, keepingEscaped: ASCIISet = .empty) {
        self.plus = plus
        self.keepingEscaped = keepingEscaped
    }

    /// RFC 3986: `+` is a plus.
    public static let url = PercentDecoder()

    /// `application/x-www-form-urlencoded`: `+` is a space.
    public static let form = PercentDecoder(plus: .space)

    /// Decodes, throwing on a malformed escape or on bytes that are not UTF-8.
    public func decode(_ string: String) throws(PercentDecodingError) -> String {
        let input = Array(string.utf8)
        var output: [UInt8] = []
        var origins: [Int] = []
        output.reserveCapacity(input.count)
        origins.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%") {
                index = try decodeEscape(input, at: index, into: &output, origins: &origins)
            } else {
                output.append(
                    byte == UInt8(ascii: "+") && plus == .space ? UInt8(ascii: " ") : byte)
                origins.append(index)
                index += 1
            }
        }
        if let bad = Self.firstInvalidUTF8(output) {
            let start = origins[bad]
            let isEscape = input[start] == UInt8(ascii: "%")
            let end = isEscape ? start + 3 : Self.scalarEnd(input, from: start)
            throw PercentDecodingError(
                reason: .invalidUTF8, byteOffset: start, excerpt: Self.text(input[start..<end]))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes, keeping malformed escapes as literal text and replacing bytes that
    /// are not UTF-8 with U+FFFD.
    public func decodeLeniently(_ string: String) -> String {
        String(decoding: decodeBytesLeniently(string), as: UTF8.self)
    }

    /// Decodes to raw bytes, keeping malformed escapes as literal text; the bytes
    /// need not be UTF-8 (PHP's `urldecode` exactly).
    public func decodeBytesLeniently(_ string: String) -> [UInt8] {
        var string = string
        return string.withUTF8 { decodeBytesLeniently($0) }
    }

    /// Decodes percent-encoded bytes (a query's or form body's name or value, a path
    /// segment) to raw bytes, as the `String` form decodes text.
    public func decodeBytesLeniently(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { decodeBytesLeniently($0) }
    }

    /// Decodes percent-encoded bytes in place where they are, such as a slice of a
    /// request's buffer, to raw bytes.
    ///
    /// The server decodes every query, form body and escaped path segment with this, so
    /// it writes straight into an array of the input's size (the output is never longer)
    /// and takes a concrete buffer, not a generic collection, which across a module
    /// boundary would run unspecialized at several times the cost.
    public func decodeBytesLeniently(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        // An array made with capacity 0 writes its count into the standard library's shared
        // empty-array storage, which ThreadSanitizer reports when two threads do it at once.
        guard !bytes.isEmpty else { return [] }
        // The loop is inlined twice, once without the test for escapes to keep, which the
        // server's decoders never have: with the test in it, decoding a form body took
        // 10 to 20 % more instructions.
        let plusIsSpace = plus == .space
        return keepingEscaped.isEmpty
            ? Self.decodeLeniently(bytes, plusIsSpace: plusIsSpace, keeping: nil)
            : Self.decodeLeniently(bytes, plusIsSpace: plusIsSpace, keeping: keepingEscaped)
    }

    @inline(__always)
    private static func decodeLeniently(
        _ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool, keeping: ASCIISet?
    ) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { output, written in
            var index = 0
            var count = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                    let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                {
                    let decoded = high << 4 | low
                    if let keeping, keeping.contains(decoded) {
                        output[count] = byte
                        output[count + 1] = bytes[index + 1]
                        output[count + 2] = bytes[index + 2]
                        // Three bytes written: two more than the one counted below.
                        count += 2
                    } else {
                        output[count] = decoded
                    }
                    index += 3
                } else {
                    output[count] = byte == UInt8(ascii: "+") && plusIsSpace ? 0x20 : byte
                    index += 1
                }
                count += 1
            }
            written = count
        }
    }

    private func decodeEscape(
        _ input: [UInt8], at index: Int, into output: inout [UInt8], origins: inout [Int]
    ) throws(PercentDecodingError) -> Int {
        guard index + 2 < input.count else {
            throw PercentDecodingError(
                reason: .truncatedEscape, byteOffset: index, excerpt: Self.text(input[index...]))
        }
        guard let high = Self.hexValue(input[index + 1]), let low = Self.hexValue(input[index + 2])
        else {
            let end = Self.scalarEnd(input, from: Self.scalarEnd(input, from: index + 1))
            throw PercentDecodingError(
                reason: .invalidHexDigits, byteOffset: index,
                excerpt: Self.text(input[index..<end]))
        }
        let decoded = high << 4 | low
        if keepingEscaped.contains(decoded) {
            output.append(contentsOf: input[index...(index + 2)])
            origins.append(contentsOf: [index, index + 1, index + 2])
        } else {
            output.append(decoded)
            origins.append(index)
        }
        return index + 3
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The end of the (valid UTF-8) character of the input that starts at `start`,
    /// so that an excerpt never cuts a character in half.
    private static func scalarEnd(_ input: [UInt8], from start: Int) -> Int {
        guard start < input.count else { return input.count }
        var end = start + 1
        while end < input.count, input[end] & 0xC0 == 0x80 { end += 1 }
        return end
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The index of the first byte that does not belong to a well-formed UTF-8 sequence.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            var lowest: UInt8 = 0x80
            var highest: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lowest = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                highest = 0x9F
            case 0xF0:
                length = 4
                lowest = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                highest = 0x8F
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            for offset in 1..<max(length, 1) where length > 1 {
                let byte = bytes[index + offset]
                let range = offset == 1 ? lowest...highest : 0x80...0xBF
                if !range.contains(byte) { return index }
            }
            index += length
        }
        return nil
    }
}
