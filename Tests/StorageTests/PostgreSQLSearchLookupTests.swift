import Testing

@testable import Storage

/// Which index a folded query goes to on PostgreSQL, and what that index is asked for.
struct PostgreSQLSearchLookupTests {
    @Test(arguments: [
        // The query is a piece of the piece index: its notes are the matches.
        ("e", PostgreSQLSearchLookup.piece("e")),
        ("会议", .piece("会议")),
        ("milk", .piece("milk")),
        ("会议记录", .piece("会议记录")),
        // Three letters in a row: pg_trgm's trigrams.
        ("tea", .trigrams(["tea"])),
        ("会议室", .trigrams(["会议室"])),
        // Three characters, not all letters: the pairs.
        ("a b", .pieces(["a ", " b"])),
        // Five or more: the four-character pieces, each once.
        ("milk tea", .pieces(["milk", "ilk ", "lk t", "k te", " tea"])),
        ("abababa", .pieces(["abab", "baba"])),
        // U+0001 is U+0002 in the index, so neither is a piece in itself.
        ("a\u{1}", .pieces(["a\u{1}"])),
        ("ab\u{2}c", .pieces(["ab\u{2}c"])),
    ])
    func routesTheQuery(query: String, lookup: PostgreSQLSearchLookup) {
        #expect(PostgreSQLSearchLookup(query, words: .allScripts) == lookup)
    }

    @Test func aLongQueryAsksForAtMost64Pieces() {
        let query = String(repeating: "abcdefghij", count: 100)
        guard case .pieces(let pieces) = PostgreSQLSearchLookup(query, words: .allScripts) else {
            Issue.record("not the piece index's pieces")
            return
        }
        #expect(pieces.count == 10)
        let wider = (0..<1_000).map { String(UnicodeScalar(0x4E00 + $0)!) }.joined()
        guard case .pieces(let many) = PostgreSQLSearchLookup(wider, words: .allScripts) else {
            Issue.record("not the piece index's pieces")
            return
        }
        #expect(many.count == 64)
    }

    @Test func aDatabaseOfASCIILettersSendsChineseToThePieces() {
        #expect(PostgreSQLSearchLookup("会议室", words: .ascii) == .pieces(["会议", "议室"]))
    }
}
