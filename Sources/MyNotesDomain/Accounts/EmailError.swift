/// Why an email is refused, naming the character at fault. Both APIs answer every case
/// with their invalid-parameter code (REST `422`, code -8; legacy -8), but for
/// ``empty``, which the legacy protocol answers -1.
///
/// ```swift
/// do { _ = try Email(validating: "\u{430}nn@example.com") }
/// catch { print(error) }  // mixes the scripts Cyrillic and Latin before the @
/// ```
public enum EmailError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    /// Not one `@` with text on both sides.
    case malformed
    case tooLong(maximum: Int)
    /// A C0 or C1 control character, or DEL.
    case controlCharacter(Unicode.Scalar)
    /// A bidirectional formatting mark or override (U+202E…).
    case bidiControl(Unicode.Scalar)
    /// A space or a character that shows as nothing (NBSP, zero-width space…).
    case invisibleCharacter(Unicode.Scalar)
    /// Letters of these scripts, which do not go together, before the `@`.
    case mixedScripts([String])

    public var description: String {
        switch self {
        case .empty: "the email is empty"
        case .malformed: "an email needs one @ with text on both sides"
        case .tooLong(let maximum): "the email is longer than \(maximum) bytes"
        case .controlCharacter(let scalar): "the email holds a control character (\(scalar.code))"
        case .bidiControl(let scalar):
            "the email holds a bidirectional formatting character (\(scalar.code))"
        case .invisibleCharacter(let scalar):
            "the email holds a space or an invisible character (\(scalar.code))"
        case .mixedScripts(let scripts):
            "the email mixes the scripts \(scripts.joined(separator: " and ")) before the @"
        }
    }
}
