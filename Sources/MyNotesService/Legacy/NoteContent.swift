/// The rules a note's `content` must meet to be stored and answered in JSON and XML.
enum NoteContent {
    static let maximumBytes = 65_536

    /// Whether `content` fits: at most 64 KiB of UTF-8, no control character but
    /// tab, LF and CR, and nothing XML cannot carry (U+FFFE, U+FFFF).
    static func isValid(_ content: String) -> Bool {
        guard content.utf8.count <= maximumBytes else { return false }
        for scalar in content.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: continue
            case 0x00...0x1F, 0x7F, 0xFFFE, 0xFFFF: return false
            default: continue
            }
        }
        return true
    }
}
