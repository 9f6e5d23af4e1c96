import Testing

@testable import Storage

/// Which index a folded query goes to on PostgreSQL, and what that index is asked for.
struct PostgreSQLSearchLookupTests {
    @Test(arguments: [
        // One or two characters: a piece of the piece index, whose chunks are the matches.
        ("e", PostgreSQLSearchLookup.piece("e")),
        ("会议", .piece("会议")),
        // Three letters in a row: pg_trgm's trigrams.
        ("tea", .trigrams(["tea"])),
        ("会议室", .trigrams(["会议室"])),
        // Three characters, not all letters: the pairs.
        ("a b", .pairs(["a ", " b"])),
        // Four or more: the four-character pieces, each once, read by month.
        ("milk", .fours(["milk"], window: "milk")),
        ("会议记录", .fours(["会议记录"], window: "会议记录")),
        ("milk tea", .fours(["milk", "ilk ", "lk t", "k te", " tea"], window: "milk tea")),
        ("abababa", .fours(["abab", "baba"], window: "abababa")),
        // Past six pieces, six evenly spaced: at characters 0, 1, 3, 4, 6 and 8.
        (
            "milk and tea",
            .fours(["milk", "ilk ", "k an", " and", "nd t", " tea"], window: "milk and tea")
        ),
        // U+0001 is U+0002 in the index, so a short query holding either is not a piece.
        ("a\u{1}", .pairs(["a\u{1}"])),
        ("ab\u{2}", .pairs(["ab", "b\u{2}"])),
    ])
    func routesTheQuery(query: String, lookup: PostgreSQLSearchLookup) {
        #expect(PostgreSQLSearchLookup(query, words: .allScripts) == lookup)
    }

    /// A query longer than a chunk's overlap looks up pieces of its first 64 characters,
    /// which one chunk holds whole wherever the query starts: six of them, evenly spaced
    /// from the window's start to its end.
    @Test func aLongQueryAsksForSixPiecesOfItsWindow() {
        let wider = (0..<1_000).map { String(UnicodeScalar(0x4E00 + $0)!) }.joined()
        let lookup = PostgreSQLSearchLookup(wider, words: .allScripts)
        guard case .fours(let pieces, let window) = lookup else {
            Issue.record("not the four-character pieces: \(lookup)")
            return
        }
        let scalars = Array(window.unicodeScalars)
        #expect(scalars.count == PostgreSQLSearchLookup.windowLength)
        #expect(window == String(wider.prefix(PostgreSQLSearchLookup.windowLength)))
        #expect(
            pieces
                == [0, 12, 24, 36, 48, 60].map {
                    String(String.UnicodeScalarView(scalars[$0..<$0 + 4]))
                })
        // A repeating text's pieces, each once.
        let periodic = String(repeating: "abcdefghij", count: 100)
        #expect(
            PostgreSQLSearchLookup(periodic, words: .allScripts)
                == .fours(
                    ["abcd", "cdef", "efgh", "ghij", "ijab"], window: String(periodic.prefix(64))))
    }

    @Test func aDatabaseOfASCIILettersSendsChineseToThePairs() {
        #expect(PostgreSQLSearchLookup("会议室", words: .ascii) == .pairs(["会议", "议室"]))
    }

    @Test func theIndexHoldsU0002ForU0001() {
        #expect(PostgreSQLSearchLookup.indexed("a\u{1}b\u{2}") == "a\u{2}b\u{2}")
    }

    /// The route after a sample of 1,000 of a million notes of 200 bytes, by how many of
    /// the sample matched and how many held the lookup's keys: pairs and trigrams weigh
    /// those candidates, the pieces by month or year only the bytes the walk should read
    /// (past 256 KB for both samples: 800 KB, 8 MB).
    @Test(arguments: [
        ("k o", 10, 140, PostgreSQLNoteStore.SearchRoute.walk),
        ("k o", 1, 2, .index),
        ("kxo", 10, 140, .walk),
        ("kxo", 1, 2, .index),
        ("k om", 10, 140, .index),
        ("会", 10, 140, .index),
    ])
    func theRouteWeighsCandidatesForPairsAndTrigrams(
        query: String, matched: Int, candidates: Int, route: PostgreSQLNoteStore.SearchRoute
    ) {
        var asked = false
        let chosen = PostgreSQLNoteStore.SearchRoute(
            PostgreSQLSearchLookup(query, words: .allScripts), matched: matched, of: 1_000,
            needed: 50 - matched, notes: 1_000_000, bytes: 200_000_000
        ) {
            asked = true
            return candidates
        }
        #expect(chosen == route)
        #expect(asked == (query.count == 3))
    }
}
