import MyNotesDomain

/// What the search index holds for one note: its folded text (``TextFolding``), the
/// note's distinct one- and two-character pieces of that text as hexadecimal UTF-8
/// words, which answer queries too short for trigrams, and its distinct five-character
/// pieces as hashed words, which answer queries of five or more characters.
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
/// entry.fives   // "" (three characters: no piece of five)
/// ```
public struct SearchIndexEntry: Sendable, Hashable {
    /// Notes of this many bytes or more keep a folded copy beside the index, so that
    /// testing a candidate never folds a long note again; shorter ones are folded when
    /// tested (a few microseconds).
    public static let foldedCopyBytes = 2_048

    public let folded: String
    public let grams: String
    public let fives: String
    /// Whether the store keeps `folded` in `notes_folded` (``foldedCopyBytes``).
    public let keepsFoldedCopy: Bool

    public init(content: String) {
        self.init(folded: TextFolding.fold(content))
    }

    /// The entry of a text folded already.
    package init(folded: String) {
        self.folded = folded
        grams = Self.grams(of: folded)
        fives = Self.fives(of: folded)
        keepsFoldedCopy = folded.utf8.count >= Self.foldedCopyBytes
    }

    /// The words of `folded`'s distinct pieces of one and two Unicode scalars, joined by
    /// spaces. UTF-8 is self-synchronizing, so no pair's word can equal a single
    /// scalar's.
    package static func grams(of folded: String) -> String {
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
        return words(of: &pieces, bytesEach: 10) { piece, hex in
            if piece >> 21 != 0, let first = Unicode.Scalar(UInt32(piece >> 21 - 1)) {
                appendHex(of: first, to: &hex)
            }
            if let second = Unicode.Scalar(UInt32(piece & 0x1F_FFFF)) {
                appendHex(of: second, to: &hex)
            }
        }
    }

    /// The words of `folded`'s distinct pieces of ``fiveLength`` Unicode scalars, joined by
    /// spaces: each piece's ``fiveHash(of:)`` in eight hexadecimal digits.
    ///
    /// Why five, and hashed: a phrase of common syllables across a word boundary
    /// (`achar xi`) has few matches, but each of its trigrams is in up to 40% of the
    /// notes, and FTS5 took 12 – 30 ms to walk their positions to the few notes where
    /// they follow each other; notes holding all four of its five-character pieces are
    /// nearly all matches (54 for 50 in a million notes). Hashed, since a CJK piece
    /// written out would be a word of 30 digits; two pieces of one hash only add a
    /// candidate, which its test turns down.
    package static func fives(of folded: String) -> String {
        var hashes = fiveHashes(of: folded.unicodeScalars)
        return words(of: &hashes, bytesEach: 9) { hash, hex in appendHex(of: hash, to: &hex) }
    }

    /// The distinct `pieces`, sorted, each written by `write`, joined by spaces.
    private static func words<Piece: Comparable>(
        of pieces: inout [Piece], bytesEach: Int, write: (Piece, inout [UInt8]) -> Void
    ) -> String {
        pieces.sort()
        var hex: [UInt8] = []
        hex.reserveCapacity(pieces.count * bytesEach)
        var last: Piece?
        for piece in pieces where piece != last {
            last = piece
            if !hex.isEmpty { hex.append(UInt8(ascii: " ")) }
            write(piece, &hex)
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The length, in Unicode scalars, of the pieces ``fives(of:)`` holds.
    package static let fiveLength = 5

    /// The hash of each piece of ``fiveLength`` scalars, in the order of the text.
    package static func fiveHashes(of scalars: some Collection<Unicode.Scalar>) -> [UInt32] {
        let values = scalars.map(\.value)
        guard values.count >= fiveLength else { return [] }
        return (0...(values.count - fiveLength)).map {
            fiveHash(of: values[$0..<($0 + fiveLength)])
        }
    }

    /// FNV-1a over the scalars' values, folded to 32 bits. The index holds these hashes:
    /// changing this function needs a migration that rebuilds the index.
    package static func fiveHash(of values: ArraySlice<UInt32>) -> UInt32 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for value in values {
            hash ^= UInt64(value)
            hash &*= 0x0000_0100_0000_01B3
        }
        return UInt32(truncatingIfNeeded: hash ^ hash >> 32)
    }

    /// The index's word for a five-character piece's hash.
    package static func word(ofFive hash: UInt32) -> String {
        var hex: [UInt8] = []
        appendHex(of: hash, to: &hex)
        return String(decoding: hex, as: UTF8.self)
    }

    private static func appendHex(of hash: UInt32, to hex: inout [UInt8]) {
        for shift in stride(from: 28, through: 0, by: -4) {
            hex.append(digits[Int(hash >> UInt32(shift) & 0xF)])
        }
    }

    /// The index's word for a piece of one or two scalars: its UTF-8 bytes in lower-case
    /// hexadecimal.
    package static func word(of scalars: some Sequence<Unicode.Scalar>) -> String {
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
