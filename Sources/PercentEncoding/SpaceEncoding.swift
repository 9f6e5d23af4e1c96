/// How an encoder writes the space character.
public enum SpaceEncoding: Sendable, Hashable {
    /// `%20`, as in any URL component.
    case percent
    /// `+`, as in `application/x-www-form-urlencoded` bodies and HTML form queries.
    case plus
}
