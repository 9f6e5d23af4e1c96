import CCrypto

/// Bytes from libcrypto's cryptographically secure generator.
public enum SecureRandom {
    public static func bytes(count: Int) throws(SecretsError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw .randomUnavailable }
        return bytes
    }
}
