/// Which search index serves a folded query on PostgreSQL (issue 15), and what every note
/// that index yields for it holds:
///
/// - the trigram index (pg_trgm, migration `notes-trigram-index`) for a query holding three
///   letters or digits in a row, as ``PostgreSQLTrigramWords`` tells them; its candidates
///   hold the query's trigrams, and `LIKE` rechecks them;
/// - the piece index (migration `notes-piece-index`) for every other query: one or two
///   characters (`会议`, `e`), or longer without three letters in a row (`奪 乿`, `a b`).
///   Its candidates hold every one of the query's pieces: the query itself when it is one
///   or two characters long (then every candidate matches), otherwise its pairs.
///
/// ```swift
/// PostgreSQLSearchLookup("milk tea", words: .allScripts)  // .trigrams(["mil", "ilk", "tea"])
/// PostgreSQLSearchLookup("会议", words: .allScripts)      // .pieces(["会议"])
/// PostgreSQLSearchLookup("a b", words: .allScripts)      // .pieces(["a ", " b"])
/// ```
enum PostgreSQLSearchLookup: Sendable, Hashable {
    case trigrams([String])
    case pieces([String])

    init(_ folded: String, words: PostgreSQLTrigramWords) {
        let trigrams = words.trigrams(of: folded)
        guard trigrams.isEmpty else {
            self = .trigrams(trigrams)
            return
        }
        let scalars = Array(folded.unicodeScalars)
        guard scalars.count > 2 else {
            self = .pieces([folded])
            return
        }
        var pairs: [String] = []
        for start in 0..<(scalars.count - 1) {
            var pair = ""
            pair.unicodeScalars.append(contentsOf: scalars[start...start + 1])
            if !pairs.contains(pair) { pairs.append(pair) }
        }
        self = .pieces(pairs)
    }

    /// What every note the index yields holds, in no order.
    var keys: [String] {
        switch self {
        case .trigrams(let keys), .pieces(let keys): keys
        }
    }

    /// The pieces as the index holds them: `mynotes_text_pieces` cuts pairs at U+0001, so
    /// it turns the text's own U+0001 into U+0002 first, and so must a query.
    static func indexed(_ piece: String) -> String {
        String(
            String.UnicodeScalarView(
                piece.unicodeScalars.map { $0 == "\u{1}" ? "\u{2}" : $0 }))
    }
}
