/// An account's email as both APIs read it: surrounding spaces (U+0020 only) dropped,
/// nothing else changed. The store compares emails ignoring ASCII case.
///
/// ```swift
/// Email(trimming: "  ann@example.com ")?.text  // "ann@example.com"
/// Email(validating: "not an email")           // nil
/// ```
struct Email: Sendable, Hashable {
    let text: String

    /// The email a request names, leniently: any text but the empty one (-1 in the
    /// legacy protocol), for looking an account up.
    init?(trimming raw: String) {
        let email = Self.trimmingSpaces(raw)
        guard !email.isEmpty else { return nil }
        text = email
    }

    /// An email an account may be created with: one `@` with text on both sides, no
    /// control characters or spaces, at most 254 bytes (after trimming).
    init?(validating raw: String) {
        let email = Self.trimmingSpaces(raw)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, email.utf8.count <= 254,
            email.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else { return nil }
        text = email
    }

    /// `text` without the spaces around it; tabs and other white space stay.
    static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " }),
            let end = scalars.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(scalars[start...end])
    }
}
