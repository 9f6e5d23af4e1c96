extension Character {
    /// Columns a terminal gives the character: 2 for East Asian wide and emoji, 0 for
    /// combining and invisible marks, 1 otherwise.
    var displayWidth: Int {
        guard let first = unicodeScalars.first else { return 0 }
        let properties = first.properties
        if unicodeScalars.count == 1 {
            switch properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format, .control: return 0
            default: break
            }
        }
        if properties.isEmojiPresentation
            || unicodeScalars.contains("\u{FE0F}") && properties.isEmoji
        {
            return 2
        }
        return Self.isWide(first.value) ? 2 : 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
