/// What the search index holds for one note: its folded text (``TextFolding``), and the
/// note's distinct one- and two-character pieces of that text as hexadecimal UTF-8
/// words, which answer queries too short for trigrams.
///
/// The store keeps the index itself. Notes a program writes straight into the database (a
/// bulk import, a test's fixture) wait in the index's tail, which searches test, until a
/// store indexes them (when it opens the database, when it is quiet, or through
/// `SQLiteNoteStore.indexWaitingNotes(inDatabaseAt:)`).
///
/// ```swift
/// let entry = SearchIndexEntry(content: "Ab会")
/// entry.folded  // "ab会"
/// entry.grams   // "61 6162 62 62e4bc9a e4bc9a" (in some order)
/// ```
public struct SearchIndexEntry: Sendable, Hashable {
    /// Notes of this many bytes or more keep a folded copy beside the index, so that
    /// testing a candidate never folds a long note again; shorter ones are folded when
    /// tested (a few microseconds).
    public static let foldedCopyBytes = 2_048

    public let folded: String
    public let grams: String
    /// Whether the store keeps `folded` in `notes_folded` (``foldedCopyBytes``).
    public let keepsFoldedCopy: Bool

    public init(content: String) {
        self.init(folded: TextFolding.fold(content))
    }

    /// The entry of a text folded already.
    init(folded: String) {
        self.folded = folded
        grams = Self.grams(of: folded)
        keepsFoldedCopy = folded.utf8.count >= Self.foldedCopyBytes
    }

    /// The words of `folded`'s distinct pieces of one and two Unicode scalars, joined by
    /// spaces. UTF-8 is self-synchronizing, so no pair's word can equal a single
    /// scalar's.
    static func grams(of folded: String) -> String {
        // Pieces as numbers while they are gathered, sorted and kept once (an array
        // sorted in place costs a fraction of a Set): a pair is its second scalar above
        // the first (scalars take 21 bits); a single scalar has no first.
        var pieces: [UInt64] = []
        pieces.reserveCapacity(folded.utf8.count * 2)
        var previous: UInt64?
        for scalar in folded.unicodeScalars {
            let value = UInt64(scalar.value)
            pieces.append(value)
            if let previous { pieces.append((previous + 1) << 21 | value) }
            previous = value
        }
        pieces.sort()
        var hex: [UInt8] = []
        hex.reserveCapacity(pieces.count * 10)
        var last: UInt64?
        for piece in pieces where piece != last {
            last = piece
            if !hex.isEmpty { hex.append(UInt8(ascii: " ")) }
            if piece >> 21 != 0, let first = Unicode.Scalar(UInt32(piece >> 21 - 1)) {
                appendHex(of: first, to: &hex)
            }
            if let second = Unicode.Scalar(UInt32(piece & 0x1F_FFFF)) {
                appendHex(of: second, to: &hex)
            }
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The index's word for a piece of one or two scalars: its UTF-8 bytes in lower-case
    /// hexadecimal.
    static func word(of scalars: some Sequence<Unicode.Scalar>) -> String {
        var hex: [UInt8] = []
        for scalar in scalars { appendHex(of: scalar, to: &hex) }
        return String(decoding: hex, as: UTF8.self)
    }

    private static func appendHex(of scalar: Unicode.Scalar, to hex: inout [UInt8]) {
        for byte in scalar.utf8 {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
    }

    private static let digits = Array("0123456789abcdef".utf8)
}
