// Search on PostgreSQL (issue 15): a page of the notes whose folded text holds the folded
// query, newest first, exactly as a walk of the account's notes with `strpos` would give
// it, read either by that walk or through a search index (``PostgreSQLSearchLookup``: the
// trigram index, or the piece index for what pg_trgm cannot serve), whichever reads fewer
// notes.
//
// An index yields, in no useful order, every note holding all the query's keys (its
// candidates, which the recheck narrows to the matches): a page from it costs them all,
// fetched, rechecked and sorted; few for a rare word, a large part of the account for a
// common one or for a phrase of common words (pg_trgm keeps no positions: `na the l`
// matches 0.4% of the benchmark's notes, and 28% are candidates). The walk costs the notes
// it reads until the page is full: few for a common query, the whole account for a rare
// one. So a search first walks a sample of the account's next notes (``searchSample``),
// where a common query fills its page. Otherwise the sample's matches and candidates tell
// what each would cost, and the rest of the page comes from the cheaper.
extension PostgreSQLNoteStore {
    /// How many notes, in page order from the cursor, a search reads before it considers
    /// an index: about a millisecond's work.
    static let searchSample = 1_000
    /// The sample's share of the account's text: an account of long notes has a smaller
    /// sample, down to ``searchSampleFloor`` notes (1,000 notes of 63 KB took 470 ms).
    static let searchSampleBytes = 256 * 1024
    static let searchSampleFloor = 16
    /// What a candidate of an index costs against reading one note of the walk:
    /// it is fetched from anywhere in the table and rechecked (measured over the
    /// benchmark's million notes: 1.5 µs a candidate, 0.58 µs a note walked).
    static let indexCandidateCost = 3.0

    static func search(
        account: Int64, after: NotePosition?, needle: String, limit: Int,
        words: PostgreSQLTrigramWords, sample size: Int = searchSample,
        indexer: PostgreSQLSearchIndexer? = nil, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> [Note] {
        guard limit > 0 else { return [] }
        let lookup = PostgreSQLSearchLookup(needle, words: words)
        let (sampled, edge) = try sample(
            size, account: account, after: after, needle: needle, limit: limit, on: connection)
        // A full page, or the sample read every note there is.
        guard sampled.count < limit, let edge else { return sampled }
        let needed = limit - sampled.count
        let candidates: Int
        if case .piece = lookup {
            // The index's notes are the matches: the sample counted them.
            candidates = sampled.count
        } else {
            candidates = try sampleCandidates(
                account: account, after: after, from: edge.position,
                keys: lookup.keys, on: connection)
        }
        let rest: [Note]
        switch SearchRoute(
            matched: sampled.count, candidates: candidates, of: edge.size, needed: needed,
            notes: edge.notes)
        {
        case .walk:
            rest = try walk(
                account: account, after: edge.position, needle: needle, limit: needed,
                on: connection)
        case .index:
            indexer?.searched(account: account)
            rest = try indexed(
                account: account, after: edge.position, needle: needle, lookup: lookup,
                limit: needed, on: connection)
        }
        return sampled + rest
    }

    /// Where the rest of a page comes from once the sample did not fill it.
    enum SearchRoute: Equatable {
        case walk
        case index

        /// `matched` of the sample's `size` notes matched and `candidates` held all the
        /// query's keys (``PostgreSQLSearchLookup/keys``), `needed` more matches are
        /// wanted, and the account holds `notes`: the walk should read `needed / rate` more
        /// notes (at most the account), the index yield `candidates / size × notes`
        /// candidates.
        init(matched: Int, candidates: Int, of size: Int, needed: Int, notes: Int64) {
            let account = Double(notes)
            let walked =
                matched > 0
                ? min(Double(needed) * Double(size) / Double(matched), account) : account
            let yielded = Double(candidates) / Double(size) * account
            self = walked < indexCandidateCost * yielded ? .walk : .index
        }
    }

    /// How many of the sample's notes, from the cursor to `edge`, hold every one of `keys`.
    private static func sampleCandidates(
        account: Int64, after: NotePosition?, from edge: NotePosition, keys: [String],
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> Int {
        let bounds: [PostgreSQLValue] = [
            .integer(account), .text(edge.sortKey), .integer(edge.id), .texts(keys),
        ]
        let rows: PostgreSQLRows
        if let after {
            rows = try connection.query(
                candidatesBeforeCursor,
                parameters: bounds + [.text(after.sortKey), .integer(after.id)])
        } else {
            rows = try connection.query(candidatesToNewest, parameters: bounds)
        }
        return Int(rows.int64(0, 0))
    }

    private static let candidatesToNewest = """
        SELECT count(*) FROM notes
        WHERE account_id = $1 AND (sort_key, id) >= ($2::text, $3::bigint)
            AND (SELECT bool_and(strpos(folded_content, t) > 0) FROM unnest($4::text[]) AS t)
        """

    private static let candidatesBeforeCursor = """
        SELECT count(*) FROM notes
        WHERE account_id = $1 AND (sort_key, id) >= ($2::text, $3::bigint)
            AND (sort_key, id) < ($5::text, $6::bigint)
            AND (SELECT bool_and(strpos(folded_content, t) > 0) FROM unnest($4::text[]) AS t)
        """

    /// The matches among the next notes in page order, `size` of them or fewer
    /// (``sampleSize(most:notes:bytes:)``), and where the sample ended (``sampleEdge(of:)``),
    /// read in one snapshot: a note written meanwhile cannot move the edge and so come
    /// twice.
    private static func sample(
        _ size: Int, account: Int64, after: NotePosition?, needle: String, limit: Int,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> (notes: [Note], edge: SampleEdge?) {
        let statements: [PostgreSQLConnection.Statement]
        if let after {
            let cursor: [PostgreSQLValue] = [.text(after.sortKey), .integer(after.id)]
            statements = [
                .init(
                    sql: sampleAfterCursor,
                    parameters: [.integer(account)] + cursor + [
                        .integer(Int64(size)), .text(needle), .integer(Int64(limit)),
                    ]),
                .init(
                    sql: edgeAfterCursor,
                    parameters: [.integer(account), .integer(Int64(size))] + cursor),
            ]
        } else {
            statements = [
                .init(
                    sql: sampleFromNewest,
                    parameters: [
                        .integer(account), .integer(Int64(size)), .text(needle),
                        .integer(Int64(limit)),
                    ]),
                .init(
                    sql: edgeFromNewest,
                    parameters: [.integer(account), .integer(Int64(size))]),
            ]
        }
        let results = try connection.pipeline(
            [.init(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", parameters: [])]
                + statements + [.init(sql: "COMMIT", parameters: [])])
        let rows = results[1]
        return ((0..<rows.count).map { note(rows, $0) }, sampleEdge(of: results[2]))
    }

    /// How many notes the sample reads: `most`, or as many as hold
    /// ``searchSampleBytes`` of the account's text, if fewer (SQL over the account's
    /// `notes` and `bytes`).
    static func sampleSize(most: String, notes: String, bytes: String) -> String {
        "least(\(most)::bigint, greatest(\(searchSampleFloor),"
            + " \(searchSampleBytes)::bigint * \(notes) / greatest(\(bytes), 1)))"
    }

    private static let sampleFromNewest = """
        SELECT \(noteColumns) FROM (
            SELECT \(noteColumns), sort_key, folded_content FROM notes WHERE account_id = $1
            ORDER BY sort_key DESC, id DESC
            LIMIT (SELECT \(sampleSize(most: "$2", notes: "note_count", bytes: "note_bytes"))
                FROM accounts WHERE id = $1)) AS sample
        WHERE strpos(folded_content, $3::text) > 0
        ORDER BY sort_key DESC, id DESC LIMIT $4
        """

    private static let sampleAfterCursor = """
        SELECT \(noteColumns) FROM (
            SELECT \(noteColumns), sort_key, folded_content FROM notes
            WHERE account_id = $1 AND (sort_key, id) < ($2::text, $3::bigint)
            ORDER BY sort_key DESC, id DESC
            LIMIT (SELECT \(sampleSize(most: "$4", notes: "note_count", bytes: "note_bytes"))
                FROM accounts WHERE id = $1)) AS sample
        WHERE strpos(folded_content, $5::text) > 0
        ORDER BY sort_key DESC, id DESC LIMIT $6
        """

    /// The last note the sample read, how many notes the account holds, and how many the
    /// sample read.
    struct SampleEdge {
        let position: NotePosition
        let notes: Int64
        let size: Int
    }

    /// The sample's edge; `nil` when the sample read to the account's oldest note.
    private static func sampleEdge(of rows: PostgreSQLRows) -> SampleEdge? {
        guard rows.count > 0, !rows.isNull(0, 1) else { return nil }
        return SampleEdge(
            position: NotePosition(sortKey: rows.text(0, 1), id: rows.int64(0, 2)),
            notes: rows.int64(0, 0), size: Int(rows.int64(0, 3)))
    }

    private static let edgeFromNewest = """
        SELECT a.note_count, e.sort_key, e.id, s.size FROM accounts a
        CROSS JOIN LATERAL (
            SELECT \(sampleSize(most: "$2", notes: "a.note_count", bytes: "a.note_bytes")) AS size
        ) s
        LEFT JOIN LATERAL (
            SELECT sort_key, id FROM notes WHERE account_id = a.id
            ORDER BY sort_key DESC, id DESC OFFSET s.size - 1 LIMIT 1) e ON true
        WHERE a.id = $1
        """

    private static let edgeAfterCursor = """
        SELECT a.note_count, e.sort_key, e.id, s.size FROM accounts a
        CROSS JOIN LATERAL (
            SELECT \(sampleSize(most: "$2", notes: "a.note_count", bytes: "a.note_bytes")) AS size
        ) s
        LEFT JOIN LATERAL (
            SELECT sort_key, id FROM notes
            WHERE account_id = a.id AND (sort_key, id) < ($3::text, $4::bigint)
            ORDER BY sort_key DESC, id DESC OFFSET s.size - 1 LIMIT 1) e ON true
        WHERE a.id = $1
        """

    /// The page's rest through the lookup's index: every match older than `after`, sorted.
    /// The transaction turns off the plans that would walk instead (the sample says the
    /// query is rare, which the planner cannot know of a parameter), leaving the index's
    /// bitmap, alone or with the account's.
    private static func indexed(
        account: Int64, after: NotePosition, needle: String, lookup: PostgreSQLSearchLookup,
        limit: Int, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> [Note] {
        let key: PostgreSQLValue
        let sql: String
        switch lookup {
        case .trigrams:
            key = .text(trigramPattern(account: account, containing: needle))
            sql = pageFromTrigramIndex
        case .pieces(let pieces):
            key = .texts(
                pieces.map { accountPiece(account: account, PostgreSQLSearchLookup.indexed($0)) })
            sql = pageFromPieceIndex
        case .piece(let piece):
            key = .texts([accountPiece(account: account, piece)])
            sql = pageOfPiece
        }
        let page = PostgreSQLConnection.Statement(
            sql: sql,
            parameters: [
                key, .text(after.sortKey), .integer(after.id), .integer(Int64(limit)),
                .integer(account), .text(needle),
            ])
        let results = try connection.pipeline([
            .init(sql: "BEGIN", parameters: []),
            .init(sql: bitmapPlansOnly, parameters: []),
            page,
            .init(sql: "COMMIT", parameters: []),
        ])
        let rows = results[2]
        return (0..<rows.count).map { note(rows, $0) }
    }

    /// Also a plan for the statement's values each time: a generic plan, which PostgreSQL
    /// may keep for a prepared statement after five runs, knows neither the query's rate
    /// nor the account's size, and may intersect the index's bitmap with the account's
    /// whole range of the page index (a million entries read for a handful of matches).
    static let bitmapPlansOnly = """
        SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
            set_config('plan_cache_mode', 'force_custom_plan', true)
        """

    /// A page of matches through the search entries (migration search-entries), where
    /// `entries` picks the entries that match (`$1` the index's key, `$5` the account, `$6`
    /// the folded query), older than the cursor (`$2`, `$3`), `$4` of them: the entries'
    /// notes as of the account's progress, with the notes changed since (its *tail*, which
    /// the indexer has not read yet) tested one by one. An entry counts while its version
    /// is the note's; those that are not belong to the tail's notes, so the entries' page
    /// takes as many more as the tail holds, which leaves the page full whatever they are.
    static func pageThroughEntries(where entries: String) -> String {
        """
        WITH progress AS (
            SELECT coalesce(
                (SELECT indexed_seq FROM search_progress WHERE account_id = $5), 0) AS seq),
        tail AS (
            SELECT c.note_id, c.version, c.deleted FROM note_changes c, progress
            WHERE c.account_id = $5 AND c.seq > progress.seq),
        matched AS (
            SELECT e.note_id, e.version FROM search_entries e
            WHERE \(entries) AND (e.sort_key, e.note_id) < ($2::text, $3::bigint)
            ORDER BY e.sort_key DESC, e.note_id DESC
            LIMIT $4 + (SELECT count(*) FROM tail))
        SELECT \(noteColumns) FROM notes
        WHERE account_id = $5 AND (sort_key, id) < ($2::text, $3::bigint)
            AND (id, version) IN (
                SELECT note_id, version FROM matched
                UNION ALL
                SELECT t.note_id, t.version FROM tail t
                JOIN notes changed ON changed.account_id = $5 AND changed.id = t.note_id
                WHERE NOT t.deleted AND strpos(changed.folded_content, $6::text) > 0)
        ORDER BY sort_key DESC, id DESC
        LIMIT $4
        """
    }

    /// The trigram index's text starts with the account (migration search-entries), so
    /// the pattern (``trigramPattern(account:containing:)``) keeps to it; comparing
    /// `account_id` as well would invite the planner to intersect with the account's whole
    /// range of the primary key.
    static let pageFromTrigramIndex = pageThroughEntries(
        where: "((e.account_id::text || chr(1)) || e.folded_content) LIKE $1::text")

    /// The piece index's candidates hold the query's pieces; `strpos` keeps the matches.
    /// The collation is the index's. The pieces are the account's
    /// (``accountPiece(account:_:)``), and so are their entries; `account_id + 0`, which no
    /// index serves, says so again without inviting the planner to intersect the pieces
    /// with the account's whole range of the primary key.
    static let pageFromPieceIndex = pageThroughEntries(
        where: """
            (mynotes_account_pieces(e.account_id, e.folded_content) COLLATE "C") @> $1::text[]
                AND e.account_id + 0 = $5 AND strpos(e.folded_content, $6::text) > 0
            """)

    /// The entries holding a query that is one of the piece index's pieces: its matches,
    /// whose text need not be read (``PostgreSQLSearchLookup/piece(_:)``).
    static let pageOfPiece = pageThroughEntries(
        where: """
            (mynotes_account_pieces(e.account_id, e.folded_content) COLLATE "C") @> $1::text[]
                AND e.account_id + 0 = $5
            """)

    /// A piece as the piece index holds it for the account's notes (migration
    /// search-entries-pieces-by-account): the account's ID, a colon, the piece. The ID is
    /// all digits, so the first colon ends it whatever the piece holds.
    static func accountPiece(account: Int64, _ piece: String) -> String {
        "\(account):" + piece
    }

    /// The trigram index's pattern for the account's notes holding `text`: the account's ID,
    /// U+0001 (which no ID holds: the ID is all the text before it), then
    /// ``likePattern(containing:)``.
    static func trigramPattern(account: Int64, containing text: String) -> String {
        "\(account)\u{1}" + likePattern(containing: text)
    }

    /// `LIKE`'s pattern for the notes holding `text`: its `%`, `_` and `\` taken literally.
    /// The escape is the backslash, LIKE's default, because pg_trgm reads the pattern with
    /// that escape when it picks the query's trigrams.
    static func likePattern(containing text: String) -> String {
        var pattern = "%"
        for character in text.unicodeScalars {
            if character == "%" || character == "_" || character == "\\" { pattern += "\\" }
            pattern.unicodeScalars.append(character)
        }
        return pattern + "%"
    }
}
