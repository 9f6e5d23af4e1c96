/// A secret access token: 32 random bytes, written in base64url so that it needs no
/// escaping in a URL, a form body or a header. Only its SHA-256 is ever stored.
///
/// ```swift
/// let token = try AccessToken.generate()
/// store(token.hash)               // keep this
/// print(token.text)               // give this to the user, once
/// ```
public struct AccessToken: Sendable, Hashable {
    public let text: String

    public var hash: [UInt8] { SHA256.hash(text) }

    public static func generate() throws(SecretsError) -> AccessToken {
        AccessToken(text: Base64URL.encode(try SecureRandom.bytes(count: 32)))
    }
}
