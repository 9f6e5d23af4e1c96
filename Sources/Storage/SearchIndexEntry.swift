/// What the search index holds for one note: its folded text (``TextFolding``), and the
/// note's distinct one- and two-character pieces of that text as hexadecimal UTF-8
/// words, which answer queries too short for trigrams.
///
/// The store keeps the index itself. A program that writes notes straight into the
/// database (a bulk import, a test's fixture) fills the index with these values, or
/// leaves it to the store, which indexes missing notes when it opens the database.
///
/// ```swift
/// let entry = SearchIndexEntry(content: "Ab会")
/// entry.folded  // "ab会"
/// entry.grams   // "61 6162 62 62e4bc9a e4bc9a" (in some order)
/// ```
public struct SearchIndexEntry: Sendable, Hashable {
    public let folded: String
    public let grams: String

    public init(content: String) {
        folded = TextFolding.fold(content)
        grams = Self.grams(of: folded)
    }

    /// The words of `folded`'s distinct pieces of one and two Unicode scalars, joined by
    /// spaces. UTF-8 is self-synchronizing, so no pair's word can equal a single
    /// scalar's.
    static func grams(of folded: String) -> String {
        var words = Set<String>()
        var previous: Unicode.Scalar?
        for scalar in folded.unicodeScalars {
            words.insert(word(of: [scalar]))
            if let previous { words.insert(word(of: [previous, scalar])) }
            previous = scalar
        }
        return words.sorted().joined(separator: " ")
    }

    /// The index's word for a piece of one or two scalars: its UTF-8 bytes in lower-case
    /// hexadecimal.
    static func word(of scalars: some Sequence<Unicode.Scalar>) -> String {
        var hex: [UInt8] = []
        for scalar in scalars {
            for byte in scalar.utf8 {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: hex, as: UTF8.self)
    }

    private static let digits = Array("0123456789abcdef".utf8)
}
