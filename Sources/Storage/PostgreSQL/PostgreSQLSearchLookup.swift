/// Which search index serves a folded query on PostgreSQL (issue 15), and what every chunk
/// of a note (migration `search-chunks`) that index yields for it holds:
///
/// - the four-character pieces, keyed by month, for a query of four characters or more
///   (``fours(_:window:)``): its candidates hold up to ``mostFours`` four-character pieces
///   spread over the query's first ``windowLength`` characters, and a page reads them a
///   month at a time, newest first, until it is full;
/// - the trigram index (pg_trgm) for a query of three characters that are letters or
///   digits, as ``PostgreSQLTrigramWords`` tells them; its candidates hold the query's
///   trigram, and `LIKE` rechecks them;
/// - the one- and two-character pieces, keyed by account alone, for every other query: one
///   or two characters (`会议`, `e`), the query itself, so that the index yields the matches
///   alone; three characters not all letters (`a b`), its pairs.
///
/// ```swift
/// PostgreSQLSearchLookup("milk tea", words: .allScripts)  // .fours(["milk", " tea"], window: "milk tea")
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
    /// Four-character pieces of `window`, the query's first ``windowLength`` characters
    /// (all of it when shorter), which one chunk holds whole wherever the query starts: a
    /// chunk holding them and `window` makes its note a candidate, and a query longer than
    /// its window is compared with the whole note.
    case fours([String], window: String)

    /// The longest run of characters a chunk is sure to hold whole: chunks of 1,024
    /// characters reach 63 into the next (`mynotes_text_chunks`, migration
    /// `search-chunks`).
    static let windowLength = 64
    /// The most four-character pieces a page looks up in each month. Every piece is one
    /// more lookup in every month read (a rare query reads all the account's months: 62
    /// in the benchmark's five years), and two or three already make a rare phrase's
    /// candidates few; the window's recheck does the rest.
    static let mostFours = 4

    init(_ folded: String, words: PostgreSQLTrigramWords) {
        let scalars = Array(folded.unicodeScalars)
        if scalars.count >= 4 {
            let window = Array(scalars.prefix(Self.windowLength))
            self = .fours(
                Self.spreadFours(of: window), window: String(String.UnicodeScalarView(window)))
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

    /// Up to ``mostFours`` distinct four-character pieces of `window`, side by side from its
    /// start and the last ending at its end (so that they cover it), then evenly spaced
    /// among those if there are more.
    private static func spreadFours(of window: [Unicode.Scalar]) -> [String] {
        var starts = Array(stride(from: 0, to: window.count - 4, by: 4))
        starts.append(window.count - 4)
        if starts.count > mostFours {
            starts = (0..<mostFours).map { starts[$0 * (starts.count - 1) / (mostFours - 1)] }
        }
        var found: [String] = []
        for start in starts {
            let piece = String(String.UnicodeScalarView(window[start..<start + 4]))
            if !found.contains(piece) { found.append(piece) }
        }
        return found
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
