/// A short piece of a note around the first place a search matched, so that a list of
/// results shows why each note is there: up to ``before`` characters before the match, the
/// match, and up to ``after`` characters after it, with `…` where the note goes on, and
/// line breaks and tabs shown as spaces (a snippet is one line).
///
/// The match is found as the search finds it (``TextFolding``, a plain substring of the
/// folded text), reading the note only up to that match; the cuts fall between
/// characters.
///
/// ```swift
/// SearchSnippet(of: "Shopping: buy MILK and eggs", matching: "milk")?.text
/// // "Shopping: buy MILK and eggs"
/// ```
package struct SearchSnippet: Sendable, Hashable {
    package static let before = 30
    package static let after = 70

    package let text: String

    /// `nil` when `query` folds to nothing. A note whose match this cannot place (folding
    /// a scalar alone can differ from folding it in its word, as Greek's final sigma does)
    /// gets its beginning.
    package init?(of content: String, matching query: String) {
        let needle = Array(TextFolding.fold(query).unicodeScalars)
        guard let first = needle.first else { return nil }
        let match = Self.firstMatch(of: needle, startingWith: first, in: content)
        let start = match?.lowerBound ?? content.startIndex
        let lower =
            content.index(start, offsetBy: -Self.before, limitedBy: content.startIndex)
            ?? content.startIndex
        let upper =
            content.index(
                match?.upperBound ?? start, offsetBy: Self.after, limitedBy: content.endIndex)
            ?? content.endIndex
        var text = lower > content.startIndex ? "…" : ""
        for character in content[lower..<upper] {
            text.append(character.isNewline || character == "\t" ? " " : character)
        }
        if upper < content.endIndex { text += "…" }
        self.text = text
    }

    /// Where the folded `needle` first occurs, as a range of `content`'s scalars, folding
    /// `content` scalar by scalar only as far as that.
    private static func firstMatch(
        of needle: [Unicode.Scalar], startingWith first: Unicode.Scalar, in content: String
    ) -> Range<String.Index>? {
        let scalars = content.unicodeScalars
        var folded: [Unicode.Scalar] = []
        var origin: [String.Index] = []
        var index = scalars.startIndex
        // Checked after every folded scalar: a match may end inside one scalar's folding
        // (`as` in `aß`, folded `ass`).
        func ends(with piece: Unicode.Scalar) -> Int? {
            folded.append(piece)
            origin.append(index)
            let start = folded.count - needle.count
            guard start >= 0, folded[start] == first, folded[start...].elementsEqual(needle)
            else { return nil }
            return start
        }
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar.isASCII {
                let value = scalar.value
                let lowered = Unicode.Scalar(UInt8((65...90).contains(value) ? value + 32 : value))
                if let start = ends(with: lowered) { return origin[start]..<next }
            } else {
                for piece in TextFolding.fold(String(scalar)).unicodeScalars {
                    if let start = ends(with: piece) { return origin[start]..<next }
                }
            }
            index = next
        }
        return nil
    }
}
