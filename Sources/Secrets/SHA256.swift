import CCrypto

/// SHA-256 digests, through libcrypto.
///
/// ```swift
/// SHA256.hash(Array("abc".utf8)).count  // 32
/// ```
public enum SHA256 {
    public static let byteCount = 32

    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        let hashed: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            _ = CCrypto.SHA256(buffer.baseAddress, buffer.count, &digest)
        }
        if hashed == nil {
            let copy = Array(bytes)
            _ = CCrypto.SHA256(copy, copy.count, &digest)
        }
        return digest
    }

    public static func hash(_ text: String) -> [UInt8] {
        hash(Array(text.utf8))
    }
}
