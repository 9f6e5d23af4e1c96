import MyNotesDomain
import Testing

@testable import PostgreSQLStore

/// Which index a folded query goes to on PostgreSQL, and what that index is asked for.
struct PostgreSQLSearchLookupTests {
    @Test(arguments: [
        // One to four characters: a piece of its own, whose chunks are the matches.
        ("e", PostgreSQLSearchLookup.piece("e")),
        ("会议", .piece("会议")),
        ("tea", .piece("tea")),
        ("会议室", .piece("会议室")),
        ("a b", .piece("a b")),
        ("milk", .piece("milk")),
        ("会议记录", .piece("会议记录")),
        // Five or more: the five-character pieces, each once, read by month.
        ("milk ", .fives(["milk "], window: "milk ")),
        ("milk tea", .fives(["milk ", "ilk t", "lk te", "k tea"], window: "milk tea")),
        ("abababab", .fives(["ababa", "babab"], window: "abababab")),
        // Past six pieces, six evenly spaced: at characters 0, 1, 2, 4, 5 and 7.
        (
            "milk and tea",
            .fives(["milk ", "ilk a", "lk an", " and ", "and t", "d tea"], window: "milk and tea")
        ),
    ])
    func routesTheQuery(query: String, lookup: PostgreSQLSearchLookup) {
        #expect(PostgreSQLSearchLookup(query) == lookup)
    }

    /// One and two characters are keyed by year in the piece index, three by month in the
    /// index of their own, four by month in the piece index, five and more by month in the
    /// index of their own.
    @Test(arguments: [
        ("e", PostgreSQLSearchLookup.Index.pieces, PostgreSQLSearchLookup.Bucket.year),
        ("会议", .pieces, .year),
        ("会议室", .triples, .month),
        ("k o", .triples, .month),
        ("milk", .pieces, .month),
        ("会议记录", .pieces, .month),
        ("milk tea", .fives, .month),
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
        ("会议", ""), ("a b", ""), ("milk", ""), ("a\u{1}", "a\u{1}"), ("ab\u{2}", "ab\u{2}"),
        ("ab\u{1}d", "ab\u{1}d"), ("milk tea", "milk tea"),
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
        guard case .fives(let pieces, let window) = lookup else {
            Issue.record("not the five-character pieces: \(lookup)")
            return
        }
        let scalars = Array(window.unicodeScalars)
        #expect(scalars.count == PostgreSQLSearchLookup.windowLength)
        #expect(window == String(wider.prefix(PostgreSQLSearchLookup.windowLength)))
        #expect(
            pieces
                == [0, 11, 23, 35, 47, 59].map {
                    String(String.UnicodeScalarView(scalars[$0..<$0 + 5]))
                })
        // A repeating text's pieces, each once.
        let periodic = String(repeating: "abcdefghij", count: 100)
        #expect(
            PostgreSQLSearchLookup(periodic)
                == .fives(
                    ["abcde", "bcdef", "defgh", "fghij", "hijab", "jabcd"],
                    window: String(periodic.prefix(64))))
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
