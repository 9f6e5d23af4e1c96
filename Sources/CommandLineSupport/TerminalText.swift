/// Text from elsewhere (a note, an email, a server's message) made safe to show on a
/// terminal: control characters that would move the cursor, change colours, retitle the
/// window or reorder the line are shown as escapes instead of acting.
///
/// ```swift
/// TerminalText.escaped("red \u{1B}[31m")          // "red \\u{1B}[31m"
/// TerminalText.escaped("a\nb", keeping: .lineBreaks)  // "a\nb"
/// ```
public enum TerminalText {
    /// Which harmless controls stay as they are.
    public enum Kept: Sendable {
        /// None: the text is shown on one line.
        case none
        /// Line feeds and tabs, for text shown in full (a note's content).
        case lineBreaks
    }

    /// `text` with every C0 control, DEL, C1 control and bidirectional override written
    /// as `\u{XX}`, except those `kept`.
    public static func escaped(_ text: String, keeping kept: Kept = .none) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, kept) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar, kept) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, _ kept: Kept) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return kept == .none
        case 0x00...0x1F, 0x7F...0x9F: return true
        // Bidirectional embeddings, overrides and isolates: they reorder what follows.
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
