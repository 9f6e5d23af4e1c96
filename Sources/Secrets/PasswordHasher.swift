import CCrypto

/// Password hashes: PBKDF2-HMAC-SHA256 through libcrypto, a 16-byte random salt per
/// password, and the iteration count kept in the encoded hash so it can be raised later
/// without invalidating existing passwords.
///
/// The encoded form is `pbkdf2-sha256$ITERATIONS$SALT$HASH` (salt and hash in hex).
/// Verification reads the count from the hash, so a hasher of any cost verifies any hash.
///
/// ```swift
/// let hasher = PasswordHasher.standard
/// let stored = try hasher.hash("correct horse battery staple")
/// hasher.verify("correct horse battery staple", against: stored)  // true
/// ```
public struct PasswordHasher: Sendable {
    /// OWASP's 2023 figure for PBKDF2-HMAC-SHA256; about a third of a second here.
    public static let defaultIterations = 600_000
    static let scheme = "pbkdf2-sha256"
    static let saltBytes = 16
    static let hashBytes = 32

    public let iterations: Int

    /// A hasher that spends `iterations` PBKDF2 rounds on each new hash (at least 1).
    public init(iterations: Int = Self.defaultIterations) {
        self.iterations = min(max(1, iterations), Int(Int32.max))
    }

    /// The cost every server and command uses: ``defaultIterations``.
    public static let standard = PasswordHasher()

    /// A thousand rounds: fast enough for test suites that create hundreds of accounts,
    /// far too cheap for a password anyone cares about. Never for real passwords.
    public static let testing = PasswordHasher(iterations: 1_000)

    /// The encoded hash of `password` with a new random salt.
    public func hash(_ password: String) throws(SecretsError) -> String {
        let salt = try SecureRandom.bytes(count: Self.saltBytes)
        let derived = try Self.derive(password, salt: salt, iterations: iterations)
        return [Self.scheme, String(iterations), Hex.encode(salt), Hex.encode(derived)]
            .joined(separator: "$")
    }

    /// Whether `password` is the one `encoded` was made from, compared in constant time.
    /// A malformed encoding matches nothing.
    public func verify(_ password: String, against encoded: String) -> Bool {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Self.scheme,
            let iterations = Int(parts[1]), iterations > 0, iterations <= Int(Int32.max),
            let salt = Hex.decode(parts[2]), let expected = Hex.decode(parts[3]),
            expected.count == Self.hashBytes,
            let derived = try? Self.derive(password, salt: salt, iterations: iterations)
        else { return false }
        return CRYPTO_memcmp(derived, expected, expected.count) == 0
    }

    /// Spends the time a verification takes, for a sign-in whose account does not
    /// exist, so the answer's timing does not tell which emails have accounts.
    public func verifyNothing(_ password: String) {
        _ = try? Self.derive(
            password, salt: [UInt8](repeating: 0, count: Self.saltBytes),
            iterations: iterations)
    }

    static func derive(
        _ password: String, salt: [UInt8], iterations: Int
    ) throws(SecretsError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: hashBytes)
        let passwordBytes = Array(password.utf8)
        let status = passwordBytes.withUnsafeBufferPointer { pass in
            pass.withMemoryRebound(to: CChar.self) { pass in
                PKCS5_PBKDF2_HMAC(
                    pass.baseAddress, Int32(pass.count), salt, Int32(salt.count),
                    Int32(iterations), EVP_sha256(), Int32(hashBytes), &output)
            }
        }
        guard status == 1 else { throw .hashingFailed }
        return output
    }
}
