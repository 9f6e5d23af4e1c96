extension String {
    /// Columns a terminal gives the string.
    var displayWidth: Int { reduce(0) { $0 + $1.displayWidth } }

    /// The string cut to at most `width` columns, ending in `…` when cut.
    func truncated(toWidth width: Int) -> String {
        guard displayWidth > width else { return self }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in self {
            let next = character.displayWidth
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// The string padded with spaces to `width` columns.
    func padded(toWidth width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - displayWidth))
    }

    /// One line for a table cell: line breaks shown as `↵`, tabs and other controls as spaces.
    var singleLine: String {
        var result = ""
        for character in self {
            if character.isNewline {
                result += "↵"
            } else if character.unicodeScalars.allSatisfy({
                $0.properties.generalCategory == .control
            }) {
                result += " "
            } else {
                result.append(character)
            }
        }
        return result
    }
}
