/// A set of ASCII characters, the unit every percent-encoding decision is made in.
///
/// Percent-encoding is defined on bytes: a character outside ASCII is always
/// escaped, as the UTF-8 bytes it is made of. So a set of ASCII characters is all
/// an encoder needs, and a bitmap makes membership a shift and a mask.
///
/// ```swift
/// let delimiters: ASCIISet = "&=+#"
/// delimiters.contains(UInt8(ascii: "&"))  // true
/// ```
public struct ASCIISet: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    private var low: UInt64
    private var high: UInt64

    /// The empty set.
    public static let empty = ASCIISet(low: 0, high: 0)

    /// `A`–`Z`, `a`–`z` and `0`–`9`.
    public static let alphanumerics: ASCIISet = {
        var set = ASCIISet.empty
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { set.insert(byte) }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { set.insert(byte) }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(byte) }
        return set
    }()

    /// RFC 3986 `unreserved`: `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
    public static let unreserved: ASCIISet = alphanumerics.union("-._~")

    /// RFC 3986 `gen-delims`: `: / ? # [ ] @`.
    public static let generalDelimiters: ASCIISet = ":/?#[]@"

    /// RFC 3986 `sub-delims`: `! $ & ' ( ) * + , ; =`.
    public static let subDelimiters: ASCIISet = "!$&'()*+,;="

    /// The characters that may stand in a URL as they are, `%` included.
    ///
    /// This is the "legal URL characters" set of `CFURLCreateStringByAddingPercentEscapes`:
    /// unreserved, reserved and `%`. Like CoreFoundation, it counts `%` as legal
    /// so that an already-escaped string passes through unchanged; an encoder that
    /// must round-trip escapes it explicitly (every preset except ``PercentEncoder/legacy`` does).
    public static let urlLegal: ASCIISet =
        unreserved.union(generalDelimiters).union(subDelimiters).union("%")

    /// Creates a set from the ASCII characters of a string; other characters are ignored,
    /// because only ASCII characters can ever be left unescaped.
    public init(_ characters: String) {
        self = .empty
        for byte in characters.utf8 where byte < 0x80 { insert(byte) }
    }

    /// Creates a set from a literal: `let set: ASCIISet = "&=+"`.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// Whether the set holds the byte; bytes of 0x80 and above never are.
    @inlinable
    public func contains(_ byte: UInt8) -> Bool {
        byte < 0x80 && _contains(byte)
    }

    @usableFromInline
    func _contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : high & (1 << UInt64(byte - 64)) != 0
    }

    /// Adds an ASCII byte; a byte of 0x80 or above is ignored.
    public mutating func insert(_ byte: UInt8) {
        guard byte < 0x80 else { return }
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    /// The characters of either set.
    public func union(_ other: ASCIISet) -> ASCIISet {
        ASCIISet(low: low | other.low, high: high | other.high)
    }

    /// The characters of this set that are not in `other`.
    public func subtracting(_ other: ASCIISet) -> ASCIISet {
        ASCIISet(low: low & ~other.low, high: high & ~other.high)
    }

    /// The characters of both sets.
    public func intersection(_ other: ASCIISet) -> ASCIISet {
        ASCIISet(low: low & other.low, high: high & other.high)
    }

    /// Whether the set has no members.
    var isEmpty: Bool { low == 0 && high == 0 }

    /// The members, in ascending order.
    public var bytes: [UInt8] { (0..<0x80).filter { _contains($0) } }

    /// The members as a string, in ascending order.
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}
