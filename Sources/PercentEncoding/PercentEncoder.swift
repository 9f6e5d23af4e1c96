/// Percent-encodes strings for one part of a URL or a form body.
///
/// An encoder is the two knobs of `CFURLCreateStringByAddingPercentEscapes`,
/// applied to UTF-8 bytes:
///
/// - `leavingUnescaped`: characters that are *not* legal in a URL but should stay
///   as they are anyway (CF's `charactersToLeaveUnescaped`);
/// - `escaping`: characters that *are* legal in a URL (``ASCIISet/urlLegal``)
///   but must be escaped here (CF's `legalURLCharactersToBeEscaped`).
///
/// A character outside ASCII is always escaped, byte by byte. The output is
/// deterministic: hexadecimal digits are upper case, and nothing depends on locale.
///
/// ```swift
/// PercentEncoder.queryValue.encode("fish & chips = £5")
/// // "fish%20%26%20chips%20%3D%20%C2%A35"
/// PercentEncoder.form.encode("a+b c")       // "a%2Bb+c"
/// PercentEncoder(escaping: "&").encode("a&b/c")  // "a%26b/c"
/// ```
///
/// Encode each query name and each value on its own (see ``QueryString``), never
/// a whole URL: once `&`, `=` and `+` are in one string, no encoder can tell the
/// ones that separate parameters from the ones that are data.
public struct PercentEncoder: Sendable, Hashable {
    /// Characters that are not URL-legal but are left as they are.
    public var leavingUnescaped: ASCIISet
    /// URL-legal characters that are escaped all the same.
    public var escaping: ASCIISet
    /// How a space is written.
    public var spaces: SpaceEncoding

    /// Creates an encoder from the two sets of `CFURLCreateStringByAddingPercentEscapes`.
    ///
    /// - Parameters:
    ///   - leavingUnescaped: characters outside ``ASCIISet/urlLegal`` to leave as they are.
    ///   - escaping: characters inside ``ASCIISet/urlLegal`` to escape.
    ///   - spaces: how to write a space; with ``SpaceEncoding/plus``, escape `+` too,
    ///     or a decoder cannot tell a plus from a space.
    public init(
        leavingUnescaped: ASCIISet = .empty, escaping: ASCIISet = .empty,
        spaces: SpaceEncoding = .percent
    ) {
        self.leavingUnescaped = leavingUnescaped
        self.escaping = escaping
        self.spaces = spaces
    }

    /// RFC 3986: only `unreserved` characters (`A-Z a-z 0-9 - . _ ~`) stay; safe anywhere.
    public static let unreserved = PercentEncoder(
        escaping: ASCIISet.urlLegal.subtracting(.unreserved))

    /// A query name or value: `unreserved` plus `/` and `?` stay, like Alamofire's
    /// `URLEncoding`; every delimiter that could split or end a parameter is escaped.
    public static let queryValue = PercentEncoder(
        escaping: ASCIISet.urlLegal.subtracting(ASCIISet.unreserved.union("/?")))

    /// `application/x-www-form-urlencoded` as WHATWG defines it: alphanumerics and
    /// `*-._` stay, a space is `+`, everything else (also `~`) is escaped.
    public static let form = PercentEncoder(
        escaping: ASCIISet.urlLegal.subtracting(ASCIISet.alphanumerics.union("*-._")),
        spaces: .plus)

    /// The seed app's `NSString(URLEncoding)` category: CF's defaults plus `+$,#[] `.
    ///
    /// Kept to reproduce what old clients sent; do not use it for new requests.
    /// It leaves `&`, `=` and `%` alone, so a note `"salt & pepper"` sent as
    /// `content=` + legacy-encoded text arrives cut at the `&`, and `"100%41"`
    /// arrives as `"100A"`.
    public static let legacy = PercentEncoder(escaping: "+$,#[] ")

    /// The characters this encoder writes as they are.
    public var unescapedCharacters: ASCIISet {
        ASCIISet.urlLegal.subtracting(escaping).union(
            leavingUnescaped.subtracting(.urlLegal))
    }

    /// Percent-encodes the UTF-8 bytes of a string.
    public func encode(_ string: String) -> String {
        encode(bytes: string.utf8)
    }

    /// Percent-encodes bytes, which need not be UTF-8.
    public func encode<Bytes: Sequence>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let keep = unescapedCharacters
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes {
            if byte == UInt8(ascii: " "), spaces == .plus {
                output.append(UInt8(ascii: "+"))
            } else if keep.contains(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(Self.hexDigits[Int(byte >> 4)])
                output.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
