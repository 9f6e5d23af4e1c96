/// What a strict ``PercentDecoder`` found wrong, and where.
///
/// ```swift
/// do {
///     _ = try PercentDecoder.url.decode("100%")
/// } catch {
///     print(error)  // truncated escape "%" at byte 3
/// }
/// ```
public struct PercentDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Reason: Sendable, Hashable {
        /// A `%` with fewer than two characters after it.
        case truncatedEscape
        /// A `%` followed by characters that are not two hexadecimal digits.
        case invalidHexDigits
        /// The decoded bytes are not UTF-8.
        case invalidUTF8
    }

    /// What is wrong.
    public var reason: Reason
    /// The offset, in UTF-8 bytes of the input, of the first byte of the problem
    /// (the `%` of a bad escape, or the escape or character whose byte breaks UTF-8).
    public var byteOffset: Int
    /// The input text at that offset: the bad escape, or the offending escape or character.
    public var excerpt: String

    /// Creates an error; decoders make these, tests compare with them.
    public init(reason: Reason, byteOffset: Int, excerpt: String) {
        self.reason = reason
        self.byteOffset = byteOffset
        self.excerpt = excerpt
    }

    /// What is wrong and where, e.g. `truncated escape "%4" at byte 2`.
    public var description: String {
        switch reason {
        case .truncatedEscape: return "truncated escape \"\(excerpt)\" at byte \(byteOffset)"
        case .invalidHexDigits: return "invalid escape \"\(excerpt)\" at byte \(byteOffset)"
        case .invalidUTF8: return "not UTF-8 at byte \(byteOffset) (\"\(excerpt)\")"
        }
    }
}
