import MyNotesDomain

extension PostgreSQLNoteStore {
    /// The change feed, as SQLite's store reads it: in one statement (one snapshot),
    /// the account's position and purge mark, then up to `$3` changes after `$2`.
    private static let changesAfter = """
        SELECT a.change_seq, a.purged_seq, c.seq, c.note_id, c.version, c.deleted::int,
            c.created_seq, n.id, n.date, n.content, n.created_at, n.updated_at, n.version
        FROM accounts a
        LEFT JOIN LATERAL (
            SELECT seq, note_id, version, deleted, created_seq FROM note_changes
            WHERE account_id = $1 AND seq > $2 AND (NOT deleted OR created_seq <= $2)
            ORDER BY seq LIMIT $3) c ON true
        LEFT JOIN notes n ON n.account_id = $1 AND n.id = c.note_id AND NOT c.deleted
        WHERE a.id = $1
        ORDER BY c.seq
        """

    public func changes(
        account: Int64, after cursor: Int64?, limit: Int
    ) async throws(StoreError) -> FeedRead {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                Self.changesAfter, .integer(account), .integer(cursor ?? 0),
                .integer(Int64(max(0, limit)) + 1))
            var found: [FeedRead.Row] = []
            for row in 0..<rows.count where !rows.isNull(row, 2) {
                found.append(
                    FeedRead.Row(
                        sequence: rows.int64(row, 2), noteID: rows.int64(row, 3),
                        version: rows.int64(row, 4), deleted: rows.int64(row, 5) != 0,
                        createdSequence: rows.int64(row, 6),
                        note: rows.isNull(row, 7)
                            ? nil : try Self.note(rows, row, startingAt: 7)))
            }
            return FeedRead.assemble(
                rows: found, position: rows.count > 0 ? rows.int64(0, 0) : 0,
                purged: rows.count > 0 ? rows.int64(0, 1) : 0, after: cursor, limit: limit)
        }
    }

    public func changePosition(account: Int64) async throws(StoreError) -> Int64 {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                "SELECT change_seq FROM accounts WHERE id = $1", .integer(account))
            return rows.count > 0 ? rows.int64(0, 0) : 0
        }
    }

    public func purgeChanges(removedBefore: Int64) async throws(StoreError) -> Int {
        try await write { connection throws(PostgreSQLError) in
            // One statement: the tombstones go and, with them, each account's mark of the
            // newest one gone, so that an older cursor reads as expired, and the search
            // chunks of their notes that the indexer has not removed yet (it reads the
            // tombstones to remove them), and the entries of the previous release's layout,
            // which its servers read during an upgrade (migration search-chunks).
            let rows = try connection.query(
                """
                WITH gone AS (
                    DELETE FROM note_changes WHERE deleted AND changed_at < $1
                    RETURNING account_id, note_id, seq),
                unindexed AS (
                    DELETE FROM search_chunks c USING gone
                    WHERE c.account_id = gone.account_id AND c.note_id = gone.note_id),
                unlisted AS (
                    DELETE FROM search_entries e USING gone
                    WHERE e.account_id = gone.account_id AND e.note_id = gone.note_id),
                marked AS (
                    UPDATE accounts SET purged_seq = newest.seq
                    FROM (SELECT account_id, max(seq) AS seq FROM gone GROUP BY account_id)
                        AS newest
                    WHERE accounts.id = newest.account_id AND newest.seq > accounts.purged_seq)
                SELECT count(*) FROM gone
                """, .integer(removedBefore))
            return Int(rows.int64(0, 0))
        }
    }

    public func observeChanges(_ observer: @escaping @Sendable (ChangeSignal) -> Void) {
        changeObservers.add(observer)
        changeListener.start()
        // The listener, started with the store for its search indexer, may have said so
        // before this observer came: what it missed, it looks for.
        if changeListener.isListening { observer(.anyAccount) }
    }
}
