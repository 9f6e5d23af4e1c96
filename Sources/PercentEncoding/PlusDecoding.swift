/// How a decoder reads the `+` character.
public enum PlusDecoding: Sendable, Hashable {
    /// `+` is itself, as in RFC 3986 URLs.
    case literal
    /// `+` is a space, as in `application/x-www-form-urlencoded` (PHP's `urldecode`).
    case space
}
