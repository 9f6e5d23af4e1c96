/// Which search index serves a folded query on PostgreSQL (issue 15), and what every note
/// that index yields for it holds:
///
/// - the piece index (migration `notes-piece-index`, on the search entries and keyed by
///   account since `search-entries-pieces-by-account`) for a query of five characters or
///   more: its candidates hold every one of the query's four-character pieces;
/// - the trigram index (pg_trgm, migration `notes-trigram-index`) for a query of three
///   characters that are letters or digits, as ``PostgreSQLTrigramWords`` tells them; its
///   candidates hold the query's trigram, and `LIKE` rechecks them;
/// - the piece index for every other query: one, two or four characters (`会议`, `e`,
///   `milk`), the query itself, a piece, so that the index yields the matches alone; three
///   characters not all letters (`a b`), its pairs.
///
/// ```swift
/// PostgreSQLSearchLookup("milk tea", words: .allScripts)  // .pieces(["milk", "ilk ", …])
/// PostgreSQLSearchLookup("tea", words: .allScripts)       // .trigrams(["tea"])
/// PostgreSQLSearchLookup("会议", words: .allScripts)      // .piece("会议")
/// PostgreSQLSearchLookup("a b", words: .allScripts)      // .pieces(["a ", " b"])
/// ```
enum PostgreSQLSearchLookup: Sendable, Hashable {
    case trigrams([String])
    case pieces([String])
    /// The query is a piece the index holds: its notes are the matches, none to recheck
    /// (a note of the 139 MB account is 63 KB to decompress and compare).
    case piece(String)

    init(_ folded: String, words: PostgreSQLTrigramWords) {
        let scalars = Array(folded.unicodeScalars)
        // The index holds U+0002 for the text's U+0001 (``indexed(_:)``): a query holding
        // either is not a piece.
        let ownPiece = !scalars.contains { $0 == "\u{1}" || $0 == "\u{2}" }
        if ownPiece && [1, 2, 4].contains(scalars.count) {
            self = .piece(folded)
            return
        }
        if scalars.count >= 4 {
            // Any of a query's pieces narrow the candidates; 64 of them bound the index's
            // work for a long query (a 1,000-character one has 997).
            self = .pieces(Array(Self.pieces(of: scalars, length: 4).prefix(64)))
            return
        }
        let trigrams = words.trigrams(of: folded)
        if !trigrams.isEmpty {
            self = .trigrams(trigrams)
        } else if scalars.count > 2 {
            self = .pieces(Self.pieces(of: scalars, length: 2))
        } else {
            self = .pieces([folded])
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

    /// What every note the index yields holds, in no order.
    var keys: [String] {
        switch self {
        case .trigrams(let keys), .pieces(let keys): keys
        case .piece(let key): [key]
        }
    }

    /// The pieces as the index holds them: `mynotes_text_pieces` cuts pieces at U+0001, so
    /// it turns the text's own U+0001 into U+0002 first, and so must a query.
    static func indexed(_ piece: String) -> String {
        String(
            String.UnicodeScalarView(
                piece.unicodeScalars.map { $0 == "\u{1}" ? "\u{2}" : $0 }))
    }
}
