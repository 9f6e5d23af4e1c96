extension AuthenticationMode {
    /// Whether an account found by email (`nil`: none) may act: with tokens only when it
    /// holds the presented one, in email-only mode whenever it exists.
    package func admits(_ found: TokenCheck?) -> Bool {
        switch self {
        case .token: found?.holdsToken == true
        case .legacyEmail: found != nil
        }
    }
}
