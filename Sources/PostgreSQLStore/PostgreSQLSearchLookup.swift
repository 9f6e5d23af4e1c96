import MyNotesDomain

/// Which piece index serves a folded query on PostgreSQL, and what every chunk
/// of a note (migration `search-chunks`) that index yields for it holds:
///
/// - a query of one to four characters (`e`, `会议`, `备忘录`, `k o`, `milk`) is itself a
///   piece the indexes hold, so that they yield its matches alone: one and two characters
///   keyed by year, three by month (migration `search-triples`), four by month;
/// - a query of five characters or more is looked up by its five-character pieces, keyed
///   by month (migration `search-fives`): its candidates hold every five-character piece of
///   the query's first ``windowLength`` characters, or ``mostFives`` of them evenly
///   spaced.
///
/// A page reads the pieces one bucket (``Bucket``) at a time, newest first, until it is
/// full.
///
/// ```swift
/// PostgreSQLSearchLookup("milk tea")  // .fives(["milk ", "ilk t", …], window: "milk tea")
/// PostgreSQLSearchLookup("备忘录")    // .piece("备忘录")
/// PostgreSQLSearchLookup("会议")      // .piece("会议")
/// ```
enum PostgreSQLSearchLookup: Sendable, Hashable {
    /// The query is a piece the index holds, of one to four characters: its chunks' notes
    /// are the matches, none to recheck (``window``).
    case piece(String)
    /// Five-character pieces of `window`, the query's first ``windowLength`` characters
    /// (all of it when shorter), which one chunk holds whole wherever the query starts: a
    /// chunk holding them and `window` makes its note a candidate, and a query longer than
    /// its window is compared with the whole note.
    case fives([String], window: String)

    /// The longest run of characters a chunk is sure to hold whole: chunks of 1,024
    /// characters reach 63 into the next (`mynotes_text_chunks`, migration
    /// `search-chunks`).
    static let windowLength = 64

    /// The most five-character pieces a page looks up in each month. Every piece is one
    /// more lookup in every month read (a rare query reads all the account's months: 62
    /// in the benchmark's five years), but pieces overlapping each other keep a phrase of
    /// common syllables from being a candidate wherever its words are: `sujuchna` read
    /// with `suju` and `chna` took 11 ms, with its five four-character pieces 2.2 ms. Six
    /// cover a query of ten characters; a longer one is rare enough with six of its
    /// pieces, and the window's recheck does the rest.
    static let mostFives = 6

    /// What the piece indexes key a piece by beside the account: the month of the note's
    /// date for three-, four- and five-character pieces (`<account>:<yyyy-MM>:…`), its year
    /// for one- and two-character ones (`<account>:<yyyy>:…`), whose posting lists are long
    /// enough that a month each would make the index much larger.
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

    /// The index that holds a lookup's pieces, and its expression as the index's
    /// definition spells it (the planner matches the statement's text to it).
    enum Index: Sendable, Hashable, CaseIterable {
        /// `search_chunks_pieces`: one- and two-character pieces by year, four-character
        /// ones by month.
        case pieces
        /// `search_chunks_triples`: three-character pieces by month.
        case triples
        /// `search_chunks_fives`: five-character pieces by month.
        case fives

        /// The index's name.
        var name: String {
            switch self {
            case .pieces: "search_chunks_pieces"
            case .triples: "search_chunks_triples"
            case .fives: "search_chunks_fives"
            }
        }

        /// The migration that builds the index (``PostgreSQLMigrations``): the baseline
        /// builds all three.
        var migration: String { PostgreSQLMigrations.baseline.name }

        /// The indexed expression over `search_chunks` aliased `c`.
        var expression: String {
            switch self {
            case .pieces: "mynotes_chunk_pieces(c.account_id, c.sort_key, c.folded_content)"
            case .triples: "mynotes_chunk_triples(c.account_id, c.sort_key, c.folded_content)"
            case .fives: "mynotes_chunk_fives(c.account_id, c.sort_key, c.folded_content)"
            }
        }
    }

    /// The bucket the lookup's pieces are keyed by.
    var bucket: Bucket {
        switch self {
        case .piece(let piece): piece.unicodeScalars.count >= 3 ? .month : .year
        case .fives: .month
        }
    }

    /// The index the lookup reads.
    var index: Index {
        switch self {
        case .piece(let piece): piece.unicodeScalars.count == 3 ? .triples : .pieces
        case .fives: .fives
        }
    }

    init(_ folded: String) {
        let scalars = Array(folded.unicodeScalars)
        if scalars.count >= 5 {
            let window = Array(scalars.prefix(Self.windowLength))
            self = .fives(
                Self.evenlySpacedFives(of: window),
                window: String(String.UnicodeScalarView(window)))
        } else {
            self = .piece(folded)
        }
    }

    /// What a candidate's chunk must hold besides its pieces: the window of five-character
    /// pieces; nothing for a piece that is the query, unless it holds U+0001 or U+0002,
    /// which the index does not tell apart (``indexed(_:)``), so that its candidates are
    /// compared with it.
    var window: String {
        switch self {
        case .fives(_, let window): window
        case .piece(let piece):
            piece.unicodeScalars.contains { $0 == "\u{1}" || $0 == "\u{2}" } ? piece : ""
        }
    }

    /// The distinct five-character pieces of `window`: every one, or ``mostFives`` starting
    /// at evenly spaced characters from its first to its last piece.
    private static func evenlySpacedFives(of window: [Unicode.Scalar]) -> [String] {
        let last = window.count - 5
        let starts =
            last < mostFives
            ? Array(0...last) : (0..<mostFives).map { $0 * last / (mostFives - 1) }
        var found: [String] = []
        for start in starts {
            let piece = String(String.UnicodeScalarView(window[start..<start + 5]))
            if !found.contains(piece) { found.append(piece) }
        }
        return found
    }

    /// What every candidate the index yields holds, in no order.
    var keys: [String] {
        switch self {
        case .fives(let keys, _): keys
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
