/// Which search index serves a folded query on PostgreSQL (issue 15), and what every chunk
/// of a note (migration `search-chunks`) that index yields for it holds:
///
/// - the four-character pieces, keyed by month, for a query of four characters or more
///   (``fours(_:window:)``): its candidates hold every four-character piece of the query's
///   first ``windowLength`` characters, and a page reads them a month at a time, newest
///   first, until it is full;
/// - the trigram index (pg_trgm) for a query of three characters that are letters or
///   digits, as ``PostgreSQLTrigramWords`` tells them; its candidates hold the query's
///   trigram, and `LIKE` rechecks them;
/// - the one- and two-character pieces, keyed by account alone, for every other query: one
///   or two characters (`会议`, `e`), the query itself, so that the index yields the matches
///   alone; three characters not all letters (`a b`), its pairs.
///
/// ```swift
/// PostgreSQLSearchLookup("milk tea", words: .allScripts)  // .fours(["milk", "ilk ", …], window: "milk tea")
/// PostgreSQLSearchLookup("tea", words: .allScripts)       // .trigrams(["tea"])
/// PostgreSQLSearchLookup("会议", words: .allScripts)      // .piece("会议")
/// PostgreSQLSearchLookup("a b", words: .allScripts)      // .pairs(["a ", " b"])
/// ```
enum PostgreSQLSearchLookup: Sendable, Hashable {
    case trigrams([String])
    case pairs([String])
    /// The query is a piece the index holds, of one or two characters: its chunks' notes
    /// are the matches, none to recheck.
    case piece(String)
    /// The four-character pieces of `window`, the query's first ``windowLength``
    /// characters (all of it when shorter), which one chunk holds whole wherever the query
    /// starts: a chunk holding `window` is a note's candidate, and a query longer than its
    /// window is compared with the whole note.
    case fours([String], window: String)

    /// The longest run of characters a chunk is sure to hold whole: chunks of 1,024
    /// characters reach 63 into the next (`mynotes_text_chunks`, migration
    /// `search-chunks`).
    static let windowLength = 64

    init(_ folded: String, words: PostgreSQLTrigramWords) {
        let scalars = Array(folded.unicodeScalars)
        if scalars.count >= 4 {
            let window = Array(scalars.prefix(Self.windowLength))
            self = .fours(
                Self.pieces(of: window, length: 4),
                window: String(String.UnicodeScalarView(window)))
            return
        }
        // The index holds U+0002 for the text's U+0001 (``indexed(_:)``): a query holding
        // either is not a piece.
        let ownPiece = !scalars.contains { $0 == "\u{1}" || $0 == "\u{2}" }
        if ownPiece && scalars.count <= 2 {
            self = .piece(folded)
            return
        }
        let trigrams = words.trigrams(of: folded)
        if !trigrams.isEmpty {
            self = .trigrams(trigrams)
        } else if scalars.count > 2 {
            self = .pairs(Self.pieces(of: scalars, length: 2))
        } else {
            self = .pairs([folded])
        }
    }

    /// The distinct runs of `length` characters in `scalars`, in order.
    private static func pieces(of scalars: [Unicode.Scalar], length: Int) -> [String] {
        var found: [String] = []
        for start in 0...(scalars.count - length) {
            var piece = ""
            piece.unicodeScalars.append(contentsOf: scalars[start..<start + length])
            if !found.contains(piece) { found.append(piece) }
        }
        return found
    }

    /// What every candidate the index yields holds, in no order.
    var keys: [String] {
        switch self {
        case .trigrams(let keys), .pairs(let keys), .fours(let keys, _): keys
        case .piece(let key): [key]
        }
    }

    /// A piece as the index holds it: the piece functions cut pieces at U+0001, so they
    /// turn the text's own U+0001 into U+0002 first, and so must a query.
    static func indexed(_ piece: String) -> String {
        String(
            String.UnicodeScalarView(
                piece.unicodeScalars.map { $0 == "\u{1}" ? "\u{2}" : $0 }))
    }
}
