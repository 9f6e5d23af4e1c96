/// A failure of the system's cryptography library.
public enum SecretsError: Error, CustomStringConvertible, Sendable {
    /// The random number generator could not produce bytes.
    case randomUnavailable
    /// Password hashing (PBKDF2) failed inside libcrypto.
    case hashingFailed

    public var description: String {
        switch self {
        case .randomUnavailable: "the secure random number generator failed"
        case .hashingFailed: "password hashing failed"
        }
    }
}
