import Testing

@testable import Storage

/// Which index a folded query goes to on PostgreSQL, and what that index is asked for.
struct PostgreSQLSearchLookupTests {
    @Test(arguments: [
        // One to three characters: a piece of its own, whose chunks are the matches.
        ("e", PostgreSQLSearchLookup.piece("e")),
        ("会议", .piece("会议")),
        ("tea", .piece("tea")),
        ("会议室", .piece("会议室")),
        ("a b", .piece("a b")),
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
    ])
    func routesTheQuery(query: String, lookup: PostgreSQLSearchLookup) {
        #expect(PostgreSQLSearchLookup(query) == lookup)
    }

    /// One and two characters are keyed by year in the piece index, three by month in the
    /// index of their own, four and more by month in the piece index.
    @Test(arguments: [
        ("e", PostgreSQLSearchLookup.Index.pieces, PostgreSQLSearchLookup.Bucket.year),
        ("会议", .pieces, .year),
        ("会议室", .triples, .month),
        ("k o", .triples, .month),
        ("milk", .pieces, .month),
    ])
    func eachLengthHasItsIndexAndBucket(
        query: String, index: PostgreSQLSearchLookup.Index, bucket: PostgreSQLSearchLookup.Bucket
    ) {
        let lookup = PostgreSQLSearchLookup(query)
        #expect(lookup.index == index)
        #expect(lookup.bucket == bucket)
    }

    /// A piece is the query, so its chunks need no comparing, unless it holds U+0001 or
    /// U+0002, which the index holds alike: then its chunks are compared with it.
    @Test(arguments: [
        ("会议", ""), ("a b", ""), ("a\u{1}", "a\u{1}"), ("ab\u{2}", "ab\u{2}"),
        ("milk tea", "milk tea"),
    ])
    func aPieceIsComparedOnlyWhenTheIndexConflatesIt(query: String, window: String) {
        #expect(PostgreSQLSearchLookup(query).window == window)
    }

    /// A query longer than a chunk's overlap looks up pieces of its first 64 characters,
    /// which one chunk holds whole wherever the query starts: six of them, evenly spaced
    /// from the window's start to its end.
    @Test func aLongQueryAsksForSixPiecesOfItsWindow() {
        let wider = (0..<1_000).map { String(UnicodeScalar(0x4E00 + $0)!) }.joined()
        let lookup = PostgreSQLSearchLookup(wider)
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
            PostgreSQLSearchLookup(periodic)
                == .fours(
                    ["abcd", "cdef", "efgh", "ghij", "ijab"], window: String(periodic.prefix(64))))
    }

    @Test func theIndexHoldsU0002ForU0001() {
        #expect(PostgreSQLSearchLookup.indexed("a\u{1}b\u{2}") == "a\u{2}b\u{2}")
    }

    /// The route after a sample of 1,000 notes, by how many of them matched: the walk when
    /// it should end within 256 KB of text (a million notes of 200 bytes: 250 notes to read
    /// at a rate of 200 in 1,000, 2,500 at 20), and, for a piece read by year, also when
    /// over a third of the sample matched, however long the notes (2,205 of 63 KB).
    @Test(arguments: [
        (
            200, Int64(1_000_000), Int64(200_000_000), PostgreSQLSearchLookup.Bucket.month,
            PostgreSQLNoteStore.SearchRoute.walk
        ),
        (200, 1_000_000, 200_000_000, .year, .walk),
        (20, 1_000_000, 200_000_000, .month, .index),
        (20, 1_000_000, 200_000_000, .year, .index),
        (0, 1_000_000, 200_000_000, .month, .index),
        (400, 2_205, 139_000_000, .year, .walk),
        (400, 2_205, 139_000_000, .month, .index),
    ])
    func theRouteWeighsTheWalksBytes(
        matched: Int, notes: Int64, bytes: Int64, bucket: PostgreSQLSearchLookup.Bucket,
        route: PostgreSQLNoteStore.SearchRoute
    ) {
        let chosen = PostgreSQLNoteStore.SearchRoute(
            matched: matched, of: 1_000, needed: 50, notes: notes, bytes: bytes, bucket: bucket)
        #expect(chosen == route)
    }
}
