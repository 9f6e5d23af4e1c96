/// Decodes a chunked request body (RFC 9112 §7.1) as its bytes arrive, strictly: every
/// line ends in CRLF, a chunk size is hexadecimal digits only, and no control byte hides in
/// an extension or a trailer. A bare LF or CR is what lets a proxy and this server frame a
/// body differently (a smuggled request), so it is refused, not tolerated.
struct ChunkedBodyDecoder {
    /// Where decoding stands after the bytes given so far.
    enum Progress: Equatable {
        case needsMore
        /// The last chunk and the trailer section ended.
        case complete
        case malformed
    }

    private enum State {
        case sizeStart
        case size(Int, digits: Int)
        case chunkExtension(Int)
        case sizeLineFeed(Int)
        case data(remaining: Int)
        case dataCarriageReturn
        case dataLineFeed
        case trailerStart
        case trailer
        case trailerLineFeed
        case endLineFeed
    }

    /// A chunk size with more hexadecimal digits would not fit in an `Int`.
    private static let maxSizeDigits = 15

    private var state = State.sizeStart
    /// Bytes of trailer fields seen, bounded so that trailers cannot grow without end.
    private var trailerBytes = 0
    private let maxTrailerBytes: Int

    init(maxTrailerBytes: Int) {
        self.maxTrailerBytes = maxTrailerBytes
    }

    /// Decodes from the start of `bytes`, handing each run of body data to `sink`. Returns
    /// how many bytes were used (all of them unless complete or malformed) and the progress.
    mutating func decode(
        _ bytes: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Void
    ) -> (consumed: Int, progress: Progress) {
        var index = 0
        while index < bytes.count {
            if case .data(let remaining) = state {
                let count = min(remaining, bytes.count - index)
                sink(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                index += count
                state =
                    remaining == count ? .dataCarriageReturn : .data(remaining: remaining - count)
                continue
            }
            let byte = bytes[index]
            index += 1
            guard let next = step(byte) else { return (index, .malformed) }
            state = next
            if case .trailerStart = state, trailerBytes > maxTrailerBytes {
                return (index, .malformed)
            }
            if isEnd { return (index, .complete) }
        }
        return (index, .needsMore)
    }

    /// Set once the final CRLF has been read.
    private var isEnd = false

    /// The state after `byte`, or `nil` when the byte breaks the framing.
    private mutating func step(_ byte: UInt8) -> State? {
        let carriageReturn = UInt8(ascii: "\r")
        let lineFeed = UInt8(ascii: "\n")
        switch state {
        case .sizeStart:
            guard let digit = Self.hexValue(byte) else { return nil }
            return .size(digit, digits: 1)
        case .size(let value, let digits):
            if let digit = Self.hexValue(byte) {
                guard digits < Self.maxSizeDigits else { return nil }
                return .size(value << 4 | digit, digits: digits + 1)
            }
            if byte == UInt8(ascii: ";") { return .chunkExtension(value) }
            return byte == carriageReturn ? .sizeLineFeed(value) : nil
        case .chunkExtension(let value):
            if byte == carriageReturn { return .sizeLineFeed(value) }
            return Self.isControl(byte) ? nil : .chunkExtension(value)
        case .sizeLineFeed(let value):
            guard byte == lineFeed else { return nil }
            return value == 0 ? .trailerStart : .data(remaining: value)
        case .data:
            return nil  // handled in bulk by decode
        case .dataCarriageReturn:
            return byte == carriageReturn ? .dataLineFeed : nil
        case .dataLineFeed:
            return byte == lineFeed ? .sizeStart : nil
        case .trailerStart:
            if byte == carriageReturn { return .endLineFeed }
            trailerBytes += 1
            return Self.isControl(byte) ? nil : .trailer
        case .trailer:
            if byte == carriageReturn { return .trailerLineFeed }
            trailerBytes += 1
            return Self.isControl(byte) ? nil : .trailer
        case .trailerLineFeed:
            return byte == lineFeed ? .trailerStart : nil
        case .endLineFeed:
            guard byte == lineFeed else { return nil }
            isEnd = true
            return .endLineFeed
        }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A control byte other than HTAB (RFC 9110 §5.5).
    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }
}
