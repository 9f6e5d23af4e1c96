// Search on PostgreSQL (issue 15): a page of the notes whose folded text holds the folded
// query, newest first, exactly as a walk of the account's notes with `strpos` would give
// it, read either by that walk or through a search index (``PostgreSQLSearchLookup``: the
// pieces keyed by month or year, or the trigram index), whichever reads less.
//
// The indexes are over chunks of the notes' folded text (migration `search-chunks`): a
// note's candidates are its chunks holding all the query's keys, and a recheck compares a
// chunk of at most 1,087 characters, not a note of 63 KB. The walk costs the notes it reads
// until the page is full: few for a common query, the whole account for a rare one. So a
// search first walks a sample of the account's next notes (``searchSample``), where a
// common query fills its page. Otherwise the sample tells what the rest would cost. A query
// that the piece index serves reads its pieces one bucket (month or year) at a time, newest
// first, and stops in the bucket that fills the page, unless the walk would end within
// ``walkAfterSampleBytes``. The trigram index yields every candidate of the account in no
// useful order (fetched, rechecked and sorted), so it is weighed against the walk by the
// candidates the sample met.
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
    /// How much more text, past the sample, the walk may read for a query whose pieces are
    /// read by month or year: as much as the sample, about a millisecond's work.
    static let walkAfterSampleBytes = searchSampleBytes
    /// About the text of one chunk (1,024 characters, migration search-chunks): what a
    /// candidate of an index compares, and the unit of a long note's cost to the walk.
    static let chunkBytes = 1_024

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
        let route = try SearchRoute(
            lookup, matched: sampled.count, of: edge.size, needed: needed, notes: edge.notes,
            bytes: edge.bytes
        ) { () throws(PostgreSQLError) in
            try sampleCandidates(
                account: account, after: after, from: edge.position, keys: lookup.keys,
                on: connection)
        }
        let rest: [Note]
        switch route {
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

        /// The route for `lookup`'s index, by the rule for its kind: pg_trgm's by the
        /// candidates (`candidates()` counts the sample's notes holding all its keys);
        /// pieces by the bytes the walk should read, and pairs by their candidates as well
        /// when those bytes say the index. A common pair is in most notes, and a year
        /// holds tens of thousands of chunks with both pairs of a query that few of them
        /// match: `k o` read 41,428 chunks of 2028 to keep 3,734 (84 ms), where the walk
        /// would have read 340 KB.
        init<Failure: Error>(
            _ lookup: PostgreSQLSearchLookup, matched: Int, of size: Int, needed: Int,
            notes: Int64, bytes: Int64, candidates: () throws(Failure) -> Int
        ) throws(Failure) {
            if let bucket = lookup.bucket {
                self.init(
                    matched: matched, of: size, needed: needed, notes: notes, bytes: bytes,
                    bucket: bucket)
                guard self == .index, case .pairs = lookup else { return }
            }
            self.init(
                matched: matched, candidates: try candidates(), of: size, needed: needed,
                notes: notes, bytes: bytes)
        }

        /// For the trigram index, which yields every candidate of the account: `matched` of
        /// the sample's `size` notes matched and `candidates` held all the query's keys
        /// (``PostgreSQLSearchLookup/keys``), `needed` more matches are wanted, and the
        /// account holds `notes` of `bytes` of content: the walk should read
        /// `needed / rate` more notes (at most the account), each compared whole, so a long
        /// note costs as many chunks of ``chunkBytes`` as it holds; the index yields
        /// `candidates / size × notes` candidates, each a chunk.
        init(
            matched: Int, candidates: Int, of size: Int, needed: Int, notes: Int64,
            bytes: Int64
        ) {
            let account = Double(notes)
            let walked =
                matched > 0
                ? min(Double(needed) * Double(size) / Double(matched), account) : account
            let chunks = max(1, Double(bytes) / max(account, 1) / Double(chunkBytes))
            let yielded = Double(candidates) / Double(size) * account
            self = walked * chunks < indexCandidateCost * yielded ? .walk : .index
        }

        /// For the pieces read by `bucket`, which stop in the one that fills the page: the
        /// walk when it should end within ``walkAfterSampleBytes`` of the account's text
        /// (`bytes` in its `notes`), at the sample's rate of `matched` in `size`, or, for
        /// a short piece read by year, when over a third of the sample matched: the year
        /// would then yield most of its chunks, where the walk finds a match early in most
        /// notes (a year of the 139 MB account holds 27,000 chunks with an `f`; a month's
        /// four-character pieces stay few even for a common word).
        init(
            matched: Int, of size: Int, needed: Int, notes: Int64, bytes: Int64,
            bucket: PostgreSQLSearchLookup.Bucket
        ) {
            guard matched > 0, notes > 0 else {
                self = .index
                return
            }
            if bucket == .year && matched * 3 > size {
                self = .walk
                return
            }
            let walked = Double(needed) * Double(size) / Double(matched)
            let text = walked * Double(bytes) / Double(notes)
            self = text <= Double(walkAfterSampleBytes) ? .walk : .index
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

    /// The last note the sample read, how many notes and bytes of content the account
    /// holds, and how many notes the sample read.
    struct SampleEdge {
        let position: NotePosition
        let notes: Int64
        let bytes: Int64
        let size: Int
    }

    /// The sample's edge; `nil` when the sample read to the account's oldest note.
    private static func sampleEdge(of rows: PostgreSQLRows) -> SampleEdge? {
        guard rows.count > 0, !rows.isNull(0, 1) else { return nil }
        return SampleEdge(
            position: NotePosition(sortKey: rows.text(0, 1), id: rows.int64(0, 2)),
            notes: rows.int64(0, 0), bytes: rows.int64(0, 4), size: Int(rows.int64(0, 3)))
    }

    private static let edgeFromNewest = """
        SELECT a.note_count, e.sort_key, e.id, s.size, a.note_bytes FROM accounts a
        CROSS JOIN LATERAL (
            SELECT \(sampleSize(most: "$2", notes: "a.note_count", bytes: "a.note_bytes")) AS size
        ) s
        LEFT JOIN LATERAL (
            SELECT sort_key, id FROM notes WHERE account_id = a.id
            ORDER BY sort_key DESC, id DESC OFFSET s.size - 1 LIMIT 1) e ON true
        WHERE a.id = $1
        """

    private static let edgeAfterCursor = """
        SELECT a.note_count, e.sort_key, e.id, s.size, a.note_bytes FROM accounts a
        CROSS JOIN LATERAL (
            SELECT \(sampleSize(most: "$2", notes: "a.note_count", bytes: "a.note_bytes")) AS size
        ) s
        LEFT JOIN LATERAL (
            SELECT sort_key, id FROM notes
            WHERE account_id = a.id AND (sort_key, id) < ($3::text, $4::bigint)
            ORDER BY sort_key DESC, id DESC OFFSET s.size - 1 LIMIT 1) e ON true
        WHERE a.id = $1
        """

    /// The page's rest through the lookup's index: for pieces, the matches of one month (or
    /// year) after another until the page is full; for trigrams, every match older than
    /// `after`, sorted.
    private static func indexed(
        account: Int64, after: NotePosition, needle: String, lookup: PostgreSQLSearchLookup,
        limit: Int, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> [Note] {
        let pieces: [String]
        let window: String
        switch lookup {
        case .trigrams:
            return try throughTrigrams(
                account: account, after: after, needle: needle, limit: limit, on: connection)
        case .fours(let fours, let within):
            (pieces, window) = (fours, within)
        case .pairs(let pairs):
            (pieces, window) = (pairs, needle)
        case .piece(let piece):
            // The piece is the query: its chunks are the matches, and the empty window
            // spares `strpos` (2 ms of a year of the 139 MB account's 3,000 chunks).
            (pieces, window) = ([piece], "")
        }
        let bucket = lookup.bucket ?? .month
        let cursor: [PostgreSQLValue] = [.text(after.sortKey), .integer(after.id)]
        var parameters: [PostgreSQLValue] = [
            .integer(account), .texts(pieces.map(PostgreSQLSearchLookup.indexed)), .text(window),
        ]
        parameters += cursor + [.integer(Int64(limit))]
        let sql: String
        switch (bucket, window == needle) {
        case (.year, _): sql = pageByYear
        case (.month, true): sql = pageByMonth
        case (.month, false):
            sql = pageByMonthOfLongQuery
            parameters.append(.text(needle))
        }
        let results = try connection.pipeline([
            .init(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", parameters: []),
            .init(sql: bucketPlans, parameters: []),
            .init(sql: sql, parameters: parameters),
            .init(
                sql: tailMatches,
                parameters: [.integer(account)] + cursor + [.text(needle), .integer(Int64(limit))]),
            .init(sql: "COMMIT", parameters: []),
        ])
        return merged(results[2], results[3], limit: limit)
    }

    /// The notes of a page read through an index and those of the tail, newest first, each
    /// once: a tail note older than the buckets read is older than the page's last note,
    /// since those buckets filled the page. The index's statements leave their rows'
    /// order to this sort, so that PostgreSQL sorts no row with its content (a page of long
    /// notes took twice the listing's time in the statement).
    private static func merged(_ indexed: PostgreSQLRows, _ tail: PostgreSQLRows, limit: Int)
        -> [Note]
    {
        var notes = (0..<indexed.count).map { note(indexed, $0) }
        let listed = Set(notes.map(\.id))
        notes += (0..<tail.count).map { note(tail, $0) }.filter { !listed.contains($0.id) }
        notes.sort { ($0.position.sortKey, $0.id) > ($1.position.sortKey, $1.id) }
        return Array(notes.prefix(limit))
    }

    /// The bucket statements' plans: no sequential scan (the pieces' bitmap is the way to a
    /// bucket's chunks), no parallel workers, whose gathering would not keep the buckets'
    /// order, which ``pageByMonth`` leaves to its nested loop, and the prepared statement's
    /// generic plan, whose shape the statements fix whatever the values (planning it anew
    /// cost 0.4 ms a page).
    static let bucketPlans = """
        SELECT set_config('enable_seqscan', 'off', true),
            set_config('max_parallel_workers_per_gather', '0', true),
            set_config('plan_cache_mode', 'force_generic_plan', true)
        """

    /// The notes of one month after another, newest first, whose chunks hold the pieces
    /// `$2` under that month's keys (`<account>:<yyyy-MM>:<piece>`, migration search-chunks)
    /// and the window `$3`, and whose version is the chunk's (a chunk of an older version
    /// belongs to a note of the tail), older than the cursor (`$4`, `$5`), `$6` of them.
    /// The months are the account's own, found newest first through the page index, and
    /// the statement asks for the next only while the page is not full: the nested loop
    /// over them emits each month's notes sorted, after the month before, and the limit
    /// stops it. The page's notes are read whole once it is known, in no order
    /// (``merged(_:_:limit:)`` sorts them): sorting rows with their content cost a page of
    /// long notes 8 ms more than the listing.
    static let pageByMonth = pageByBucket(.month, recheck: "")

    /// ``pageByMonth`` for a query longer than its window: a chunk holding the window makes
    /// its note a candidate, and the note's whole text is compared with the query (`$7`).
    static let pageByMonthOfLongQuery = pageByBucket(
        .month, recheck: "AND strpos(n.folded_content, $7::text) > 0")

    /// ``pageByMonth`` by year, for the one- and two-character pieces
    /// (`<account>:<yyyy>:<piece>`).
    static let pageByYear = pageByBucket(.year, recheck: "")

    private static func pageByBucket(_ bucket: PostgreSQLSearchLookup.Bucket, recheck: String)
        -> String
    {
        let length = bucket.sortKeyPrefix
        return """
            WITH RECURSIVE buckets(bucket) AS (
                SELECT left($4::text, \(length)) COLLATE "C"
                UNION ALL
                SELECT (SELECT left(n.sort_key, \(length)) FROM notes n
                    WHERE n.account_id = $1 AND n.sort_key < b.bucket
                    ORDER BY n.sort_key DESC LIMIT 1)
                FROM buckets b WHERE b.bucket IS NOT NULL)
            SELECT n.id, n.date, n.content, n.created_at, n.updated_at, n.version
            FROM (
                SELECT page.note_id, page.sort_key FROM buckets CROSS JOIN LATERAL (
                    SELECT m.note_id, m.sort_key FROM (
                        SELECT DISTINCT c.note_id, c.sort_key, c.version FROM search_chunks c
                        WHERE (mynotes_chunk_pieces(c.account_id, c.sort_key, c.folded_content) COLLATE "C")
                            @> ARRAY(SELECT $1 || ':' || buckets.bucket || ':' || k FROM unnest($2::text[]) k)
                            AND c.account_id + 0 = $1 AND strpos(c.folded_content, $3::text) > 0
                            AND (c.sort_key, c.note_id) < ($4::text, $5::bigint)) m
                    JOIN notes n ON n.account_id = $1 AND n.id = m.note_id AND n.version = m.version
                        \(recheck)
                    ORDER BY m.sort_key DESC, m.note_id DESC) page
                WHERE buckets.bucket IS NOT NULL
                LIMIT $6) found
            JOIN notes n ON n.account_id = $1 AND n.id = found.note_id
            """
    }

    /// The account's notes changed after its progress (the indexer has not read them),
    /// older than the cursor (`$2`, `$3`), that hold `$4`: the newest `$5`. Each note is
    /// looked up from its change, in a lateral subquery that `OFFSET 0` keeps apart: the
    /// planner reckons a third of the feed after the progress, and joined the other way it
    /// walked the account's notes with `strpos` (a million notes: 0.4 s) for an empty tail.
    static let tailMatches = """
        SELECT n.id, n.date, n.content, n.created_at, n.updated_at, n.version
        FROM note_changes c
        CROSS JOIN LATERAL (
            SELECT id, date, content, created_at, updated_at, version, sort_key FROM notes
            WHERE account_id = $1 AND id = c.note_id AND (sort_key, id) < ($2::text, $3::bigint)
                AND strpos(folded_content, $4::text) > 0
            OFFSET 0) n
        WHERE c.account_id = $1 AND NOT c.deleted AND c.seq > coalesce(
            (SELECT indexed_seq FROM search_chunks_progress WHERE account_id = $1), 0)
        ORDER BY n.sort_key DESC, n.id DESC
        LIMIT $5
        """

    /// The rest of a page of a three-letter query through the trigram index: every match
    /// older than the cursor, sorted (pg_trgm yields its candidates in no order), with the
    /// tail's.
    private static func throughTrigrams(
        account: Int64, after: NotePosition, needle: String, limit: Int,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> [Note] {
        let cursor: [PostgreSQLValue] = [.text(after.sortKey), .integer(after.id)]
        let results = try connection.pipeline([
            .init(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", parameters: []),
            .init(sql: bitmapPlansOnly, parameters: []),
            .init(
                sql: pageFromTrigramIndex,
                parameters: [
                    .integer(account), .text(trigramPattern(account: account, containing: needle)),
                ] + cursor + [.integer(Int64(limit))]),
            .init(
                sql: tailMatches,
                parameters: [.integer(account)] + cursor + [.text(needle), .integer(Int64(limit))]),
            .init(sql: "COMMIT", parameters: []),
        ])
        return merged(results[2], results[3], limit: limit)
    }

    /// The transaction of the trigram index turns off the plans that would walk instead
    /// (the sample says the query is rare, which the planner cannot know of a parameter),
    /// leaving the index's bitmap, alone or with the account's. Also a plan for the
    /// statement's values each time: a generic plan, which PostgreSQL may keep for a
    /// prepared statement after five runs, knows neither the query's rate nor the account's
    /// size, and may intersect the index's bitmap with the account's whole range of the
    /// page index (a million entries read for a handful of matches).
    static let bitmapPlansOnly = """
        SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
            set_config('plan_cache_mode', 'force_custom_plan', true)
        """

    /// The notes whose chunks hold the trigram index's pattern `$2`, at their chunks'
    /// version (a chunk of an older version belongs to a note of the tail), older than the
    /// cursor (`$3`, `$4`), the newest `$5`. The pattern starts with the account (migration
    /// search-chunks, ``trigramPattern(account:containing:)``), so it keeps to the
    /// account's chunks; comparing `account_id` as well would invite the planner to
    /// intersect with the account's whole range of the primary key.
    static let pageFromTrigramIndex = """
        SELECT n.id, n.date, n.content, n.created_at, n.updated_at, n.version
        FROM (
            SELECT m.note_id, m.sort_key FROM (
                SELECT DISTINCT c.note_id, c.sort_key, c.version FROM search_chunks c
                WHERE ((c.account_id::text || chr(1)) || c.folded_content) LIKE $2::text
                    AND (c.sort_key, c.note_id) < ($3::text, $4::bigint)) m
            JOIN notes n ON n.account_id = $1 AND n.id = m.note_id AND n.version = m.version
            ORDER BY m.sort_key DESC, m.note_id DESC
            LIMIT $5) found
        JOIN notes n ON n.account_id = $1 AND n.id = found.note_id
        """

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
