import CCrypto

/// A secret access token: 32 random bytes, written in base64url so that it needs no
/// escaping in a URL, a form body or a header. Only its SHA-256 is ever stored.
///
/// ```swift
/// let token = try AccessToken.generate()
/// store(token.hash)               // keep this
/// print(token.text)               // give this to the user, once
/// AccessToken.matches("…", hash: storedHash)
/// ```
public struct AccessToken: Sendable, Hashable {
    public let text: String

    public var hash: [UInt8] { SHA256.hash(text) }

    public static func generate() throws(SecretsError) -> AccessToken {
        AccessToken(text: Base64URL.encode(try SecureRandom.bytes(count: 32)))
    }

    /// Whether `candidate` is the token whose hash is stored. The hashes are compared
    /// in constant time, so timing tells nothing about how much of it was right.
    public static func matches(_ candidate: String, hash stored: [UInt8]) -> Bool {
        let hash = SHA256.hash(candidate)
        guard hash.count == stored.count else { return false }
        return CRYPTO_memcmp(hash, stored, hash.count) == 0
    }
}
