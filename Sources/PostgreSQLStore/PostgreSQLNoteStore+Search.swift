import MyNotesDomain

// Search on PostgreSQL: a page of the notes whose folded text holds the folded
// query, newest first, exactly as a walk of the account's notes with `strpos` would give
// it, read either by that walk or through a search index (``PostgreSQLSearchLookup``: the
// pieces keyed by month or year), whichever reads less.
//
// The indexes are over chunks of the notes' folded text (migration `search-chunks`): a
// note's candidates are its chunks holding all the query's keys, and a recheck compares a
// chunk of at most 1,087 characters, not a note of 63 KB. The walk costs the notes it reads
// until the page is full: few for a common query, the whole account for a rare one. So a
// search first walks a sample of the account's next notes (``searchSample``), where a
// common query fills its page. Otherwise the sample tells what the rest would cost: the
// index reads its pieces one bucket (month or year) at a time, newest first, and stops in
// the bucket that fills the page, unless the walk would end within
// ``walkAfterSampleBytes``.
extension PostgreSQLNoteStore {
    /// How many notes, in page order from the cursor, a search reads before it considers
    /// an index: about a millisecond's work.
    static let searchSample = 1_000
    /// The sample's share of the account's text: an account of long notes has a smaller
    /// sample, down to ``searchSampleFloor`` notes (1,000 notes of 63 KB took 470 ms).
    static let searchSampleBytes = 256 * 1024
    static let searchSampleFloor = 16
    /// How much more text, past the sample, the walk may read for a query whose pieces are
    /// read by month or year: as much as the sample, about a millisecond's work.
    static let walkAfterSampleBytes = searchSampleBytes

    static func search(
        account: Int64, after: NotePosition?, needle: String, limit: Int,
        sample size: Int = searchSample, indexer: PostgreSQLSearchIndexer? = nil,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> [Note] {
        guard limit > 0 else { return [] }
        let lookup = PostgreSQLSearchLookup(needle)
        let (sampled, edge) = try sample(
            size, account: account, after: after, needle: needle, limit: limit, on: connection)
        // A full page, or the sample read every note there is.
        guard sampled.count < limit, let edge else { return sampled }
        let needed = limit - sampled.count
        let route = SearchRoute(
            matched: sampled.count, of: edge.size, needed: needed, notes: edge.notes,
            bytes: edge.bytes, bucket: lookup.bucket)
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

    /// Prepares the search's statements on a new connection and runs each once, in one
    /// round trip, for an account that cannot exist (``searchRehearsal``), so that no
    /// request waits while they are planned: on a fresh server, the first search took 12 ms
    /// more than the next, and each statement of pages from the index (five) 2.5 ms more on
    /// its first use.
    static func prepareSearch(on connection: PostgreSQLConnection) throws(PostgreSQLError) {
        do throws(PostgreSQLError) {
            _ = try connection.pipeline(
                [.init(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", parameters: [])]
                    + searchRehearsal + [.init(sql: "COMMIT", parameters: [])])
        } catch {
            if connection.isInTransaction { try connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// Every statement of a search, for an account that cannot exist. A page's cursor is
    /// NULL, so that its statement finds no bucket and reads no chunk: without the search
    /// indexes (dropped by hand), its plan reads them all.
    static var searchRehearsal: [PostgreSQLConnection.Statement] {
        let nobody = PostgreSQLValue.integer(-1)
        let cursor: [PostgreSQLValue] = [.text(""), .integer(0)]
        let page: [PostgreSQLValue] = [
            nobody, .texts([""]), .text(""), .null, .integer(0), .integer(1),
        ]
        var statements: [PostgreSQLConnection.Statement] = [
            .init(
                sql: sampleFromNewest, parameters: [nobody, .integer(1), .text(""), .integer(1)]),
            .init(
                sql: sampleAfterCursor,
                parameters: [nobody] + cursor + [.integer(1), .text(""), .integer(1)]),
            .init(sql: edgeFromNewest, parameters: [nobody, .integer(1)]),
            .init(sql: edgeAfterCursor, parameters: [nobody, .integer(1)] + cursor),
            .init(sql: tailMatches, parameters: [nobody] + cursor + [.text(""), .integer(1)]),
            .init(sql: bucketPlans, parameters: []),
        ]
        for sql in [pageByMonth, pageByYear, pageOfTriples, pageOfFives] {
            statements.append(.init(sql: sql, parameters: page))
        }
        statements.append(.init(sql: pageOfFivesOfLongQuery, parameters: page + [.text("")]))
        return statements
    }

    /// Where the rest of a page comes from once the sample did not fill it.
    enum SearchRoute: Equatable {
        case walk
        case index

        /// For the pieces read by `bucket`, which stop in the one that fills the page: the
        /// walk when it should end within ``walkAfterSampleBytes`` of the account's text
        /// (`bytes` in its `notes`), at the sample's rate of `matched` in `size`, or, for
        /// a short piece read by year, when over a third of the sample matched: the year
        /// would then yield most of its chunks, where the walk finds a match early in most
        /// notes (a year of the 139 MB account holds 27,000 chunks with an `f`; a month's
        /// three- and four-character pieces stay few even for a common word).
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
        return (try notes(rows), sampleEdge(of: results[2]))
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

    /// The page's rest through the lookup's index: the matches of one month (or year)
    /// after another until the page is full.
    private static func indexed(
        account: Int64, after: NotePosition, needle: String, lookup: PostgreSQLSearchLookup,
        limit: Int, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> [Note] {
        let cursor: [PostgreSQLValue] = [.text(after.sortKey), .integer(after.id)]
        let window = lookup.window
        var parameters: [PostgreSQLValue] = [
            .integer(account), .texts(lookup.keys.map(PostgreSQLSearchLookup.indexed)),
            .text(window),
        ]
        parameters += cursor + [.integer(Int64(limit))]
        let sql: String
        switch (lookup.index, lookup.bucket, window == needle) {
        case (.triples, _, _): sql = pageOfTriples
        case (.pieces, .year, _): sql = pageByYear
        case (.pieces, .month, _): sql = pageByMonth
        case (.fives, _, true): sql = pageOfFives
        case (.fives, _, false):
            sql = pageOfFivesOfLongQuery
            parameters.append(.text(needle))
        }
        // Each note is made as it arrives, while PostgreSQL reads the next out of TOAST.
        var notes: [Note] = []
        var unreadable: PostgreSQLError?
        let results = try connection.pipeline([
            .init(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", parameters: []),
            .init(sql: bucketPlans, parameters: []),
            .init(
                sql: sql, parameters: parameters,
                eachRow: { rows in
                    do throws(PostgreSQLError) {
                        notes += try Self.notes(rows)
                    } catch {
                        unreadable = unreadable ?? error
                    }
                }),
            .init(
                sql: tailMatches,
                parameters: [.integer(account)] + cursor + [.text(needle), .integer(Int64(limit))]),
            .init(sql: "COMMIT", parameters: []),
        ])
        if let unreadable { throw unreadable }
        return try merged(notes, results[3], limit: limit)
    }

    /// The notes of a page read through an index and those of the tail, newest first, each
    /// once: a tail note older than the buckets read is older than the page's last note,
    /// since those buckets filled the page. The index's statements leave their rows'
    /// order to this sort, so that PostgreSQL sorts no row with its content (a page of long
    /// notes took twice the listing's time in the statement).
    private static func merged(_ indexed: [Note], _ tail: PostgreSQLRows, limit: Int)
        throws(PostgreSQLError) -> [Note]
    {
        var notes = indexed
        let listed = Set(notes.map(\.id))
        notes += try Self.notes(tail).filter { !listed.contains($0.id) }
        // The page's order, sort_key's: a bare day is its midnight, ties go by ID.
        notes.sort { a, b in
            if b.date < a.date { return true }
            if a.date < b.date { return false }
            return a.id > b.id
        }
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
    static let pageByMonth = pageByBucket(.month, of: .pieces, recheck: "")

    /// ``pageByMonth`` by year, for the one- and two-character pieces
    /// (`<account>:<yyyy>:<piece>`).
    static let pageByYear = pageByBucket(.year, of: .pieces, recheck: "")

    /// ``pageByMonth`` through the three-character pieces (migration `search-triples`).
    static let pageOfTriples = pageByBucket(.month, of: .triples, recheck: "")

    /// ``pageByMonth`` through the five-character pieces (migration `search-fives`).
    static let pageOfFives = pageByBucket(.month, of: .fives, recheck: "")

    /// ``pageOfFives`` for a query longer than its window: a chunk holding the window makes
    /// its note a candidate, and the note's whole text is compared with the query (`$7`).
    static let pageOfFivesOfLongQuery = pageByBucket(
        .month, of: .fives, recheck: "AND strpos(n.folded_content, $7::text) > 0")

    private static func pageByBucket(
        _ bucket: PostgreSQLSearchLookup.Bucket, of index: PostgreSQLSearchLookup.Index,
        recheck: String
    ) -> String {
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
                        WHERE (\(index.expression) COLLATE "C")
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
}
