/// Which search index serves a folded query on PostgreSQL (issue 15), and what every chunk
/// of a note (migration `search-chunks`) that index yields for it holds:
///
/// - the four-character pieces, keyed by month, for a query of four characters or more
///   (``fours(_:window:)``): its candidates hold every four-character piece of the
///   query's first ``windowLength`` characters, or ``mostFours`` of them evenly spaced,
///   and a page reads them a month at a time, newest first, until it is full;
/// - the trigram index (pg_trgm) for a query of three characters that are letters or
///   digits, as ``PostgreSQLTrigramWords`` tells them; its candidates hold the query's
///   trigram, and `LIKE` rechecks them;
/// - the one- and two-character pieces, keyed by year, for every other query: one or two
///   characters (`会议`, `e`), the query itself, so that the index yields the matches
///   alone; three characters not all letters (`a b`), its pairs. A page reads them a year
///   at a time.
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
    /// in the benchmark's five years), but pieces overlapping each other keep a phrase of
    /// common syllables from being a candidate wherever its words are: `sujuchna` read
    /// with `suju` and `chna` took 11 ms, with its five pieces 2.2 ms. Six cover a
    /// query of nine characters; a longer one is rare enough with six of its pieces, and
    /// the window's recheck does the rest.
    static let mostFours = 6

    /// What the piece index keys a piece by beside the account (migration search-chunks):
    /// the month of the note's date for four-character pieces (`<account>:<yyyy-MM>:…`),
    /// its year for one- and two-character ones (`<account>:<yyyy>:…`), whose posting lists
    /// are long enough that a month each would make the index much larger.
    enum Bucket: Sendable, Hashable {
        case year
        case month

        /// How many characters of a sort key (`yyyy-MM-dd HH:mm:ss`) name the bucket.
        var sortKeyPrefix: Int {
            switch self {
            case .year: 4
            case .month: 7
            }
        }
    }

    /// The bucket the lookup's pieces are keyed by; `nil` for pg_trgm's trigrams.
    var bucket: Bucket? {
        switch self {
        case .trigrams: nil
        case .pairs, .piece: .year
        case .fours: .month
        }
    }

    init(_ folded: String, words: PostgreSQLTrigramWords) {
        let scalars = Array(folded.unicodeScalars)
        if scalars.count >= 4 {
            let window = Array(scalars.prefix(Self.windowLength))
            self = .fours(
                Self.evenlySpacedFours(of: window),
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

    /// The distinct four-character pieces of `window`: every one, or ``mostFours`` starting
    /// at evenly spaced characters from its first to its last piece.
    private static func evenlySpacedFours(of window: [Unicode.Scalar]) -> [String] {
        let last = window.count - 4
        let starts =
            last < mostFours
            ? Array(0...last) : (0..<mostFours).map { $0 * last / (mostFours - 1) }
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
