import Foundation

/// An account's email as both APIs read it: surrounding spaces (U+0020 only) dropped,
/// refused when it holds a character ``EmailCharacters`` forbids or mixes scripts before
/// the `@`, then normalized: Unicode NFC, and the part after the last `@` lower-cased.
/// The store compares emails ignoring ASCII case.
///
/// ```swift
/// try Email(validating: "  Ann@Example.COM ").text  // "Ann@example.com"
/// try Email(validating: "ann@example.com\u{A0}")   // throws .invisibleCharacter(U+00A0)
/// try Email(lookingUp: "nobody")                    // fine: lookups need no @
/// ```
package struct Email: Sendable, Hashable {
    package static let maximumBytes = 254

    package let text: String

    /// The email a request names, for looking an account up: any text but the empty one
    /// (-1 in the legacy protocol) without refused characters (-8). No account can have an
    /// email this refuses, so refusing it says nothing about which accounts exist.
    package init(lookingUp raw: String) throws(EmailError) {
        let email = Self.trimmingSpaces(raw)
        guard !email.isEmpty else { throw .empty }
        if Self.isPrintableASCII(email) {
            text = Self.normalizedASCII(email)
            return
        }
        // A space inside is no account's email but no trick either: looked up, not found.
        try Self.checkCharacters(
            String(String.UnicodeScalarView(email.unicodeScalars.filter { $0 != " " })))
        text = Self.normalized(email)
    }

    /// An email an account may be created with: also one `@` with text on both sides, at
    /// most 254 bytes once normalized.
    package init(validating raw: String) throws(EmailError) {
        let email = Self.trimmingSpaces(raw)
        guard !email.isEmpty else { throw .empty }
        let plain = Self.isPrintableASCII(email)
        if !plain { try Self.checkCharacters(email) }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw .malformed }
        let normalized = plain ? Self.normalizedASCII(email) : Self.normalized(email)
        guard normalized.utf8.count <= Self.maximumBytes else {
            throw .tooLong(maximum: Self.maximumBytes)
        }
        text = normalized
    }

    /// Refuses controls, bidirectional marks and invisible characters anywhere, and mixed
    /// scripts before the first `@`: on the text as sent, as the OpenAPI pattern reads it.
    private static func checkCharacters(_ email: String) throws(EmailError) {
        if let (kind, scalar) = EmailCharacters.forbidden(in: email) {
            switch kind {
            case .control: throw .controlCharacter(scalar)
            case .bidiControl: throw .bidiControl(scalar)
            case .invisible: throw .invisibleCharacter(scalar)
            }
        }
        let local = email.unicodeScalars.prefix { $0 != "@" }
        let scripts = EmailCharacters.scripts(of: String(String.UnicodeScalarView(local)))
        if EmailCharacters.mixes(scripts) { throw .mixedScripts(scripts) }
    }

    /// Whether `email` is visible ASCII (no space), as nearly every email is: it then holds
    /// no character ``EmailCharacters`` forbids, letters of one script, and NFC leaves it as
    /// it is, so the checks and Foundation's normalization (a third of a kept query
    /// answer's time) can be skipped.
    private static func isPrintableASCII(_ email: String) -> Bool {
        email.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// ``normalized(_:)`` for printable ASCII: the domain's letters lower-cased.
    private static func normalizedASCII(_ email: String) -> String {
        var bytes = Array(email.utf8)
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return email }
        for index in bytes.indices[(at + 1)...]
        where (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[index]) {
            bytes[index] += 0x20
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// NFC, with the domain (after the last `@`, when there is one) lower-cased.
    private static func normalized(_ email: String) -> String {
        guard let at = email.lastIndex(of: "@") else {
            return email.precomposedStringWithCanonicalMapping
        }
        let domain = email[email.index(after: at)...].lowercased()
        return (email[...at] + domain).precomposedStringWithCanonicalMapping
    }

    /// `text` without the spaces around it; tabs and other white space stay (and are
    /// refused by the checks).
    package static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " }),
            let end = scalars.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(scalars[start...end])
    }
}
