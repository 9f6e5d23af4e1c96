/// A note's content, valid for both APIs: not empty, at most 64 KiB of UTF-8, no
/// control character but tab, LF and CR, and nothing XML cannot carry (U+FFFE, U+FFFF).
///
/// ```swift
/// let content = try NoteContent(validating: "Buy milk")
/// try NoteContent(validating: "bell\u{7}")  // throws .invalidContent(.forbiddenCharacter)
/// ```
package struct NoteContent: Sendable, Hashable {
    /// Why a text cannot be a note's content.
    package enum Problem: Sendable, Hashable {
        case empty
        case tooLarge(maximumBytes: Int)
        case forbiddenCharacter
    }

    package static let maximumBytes = 65_536

    package let text: String

    package init(validating text: String) throws(NoteError) {
        if let problem = Self.problem(with: text) { throw .invalidContent(problem) }
        self.text = text
    }

    private static func problem(with text: String) -> Problem? {
        if text.isEmpty { return .empty }
        if text.utf8.count > maximumBytes { return .tooLarge(maximumBytes: maximumBytes) }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: continue
            case 0x00...0x1F, 0x7F, 0xFFFE, 0xFFFF: return .forbiddenCharacter
            default: continue
            }
        }
        return nil
    }
}
