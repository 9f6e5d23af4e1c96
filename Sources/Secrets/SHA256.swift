import CCrypto

/// SHA-256 digests, through libcrypto.
///
/// ```swift
/// SHA256.hash(Array("abc".utf8)).count  // 32
/// SHA256.hex("abc")  // "ba7816bf…f20015ad", 64 digits
/// ```
public enum SHA256 {
    public static let byteCount = 32

    /// The algorithm, fetched once: OpenSSL 3's one-shot `SHA256()` looks it up by name
    /// on every call, which costs more than hashing a token. A fetched `EVP_MD` is
    /// immutable and safe to share between threads.
    private nonisolated(unsafe) static let algorithm: OpaquePointer? = EVP_MD_fetch(
        nil, "SHA256", nil)

    public static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { digest, count in
            var length: UInt32 = 0
            let succeeded = EVP_Digest(
                bytes.baseAddress, bytes.count, digest.baseAddress, &length, algorithm, nil)
            // Only an allocation failure inside libcrypto fails here; there is no
            // digest to give, and going on with a wrong one would be worse.
            precondition(succeeded == 1 && length == byteCount, "EVP_Digest(SHA-256) failed")
            count = byteCount
        }
    }

    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0) }
    }

    public static func hash(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// The digest as 64 lowercase hexadecimal digits, for names made from content (the
    /// `mynotes` client's import journals and local copies).
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        Hex.encode(hash(bytes))
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        Hex.encode(hash(bytes))
    }

    public static func hex(_ text: String) -> String {
        Hex.encode(hash(text))
    }
}
