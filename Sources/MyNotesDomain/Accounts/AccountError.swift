/// Why an account operation failed, in words for the operator.
public enum AccountError: Error, CustomStringConvertible {
    case invalidEmail(String, EmailError)
    case duplicateEmail(String)
    case noSuchAccount(String)
    case store(StoreError)
    case randomUnavailable

    public var description: String {
        switch self {
        // The reason names the refused character by its code point; the email itself is
        // escaped where it is printed to a terminal.
        case .invalidEmail(let email, let reason): "invalid email '\(email)': \(reason)"
        case .duplicateEmail(let email): "an account with email \(email) already exists"
        case .noSuchAccount(let email): "no account with email \(email)"
        case .store(let error): error.description
        case .randomUnavailable: "the secure random number generator failed"
        }
    }
}
