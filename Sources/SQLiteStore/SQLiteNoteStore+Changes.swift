import MyNotesDomain

extension SQLiteNoteStore {
    /// The change feed, in one statement (one snapshot): the account's position and
    /// purge mark, then up to `?3` changes after `?2`. A tombstone of a note made after the
    /// cursor is left out: that reader never saw the note.
    private static let changesAfter = """
        SELECT a.change_seq, a.purged_seq, c.seq, c.note_id, c.version, c.deleted,
            c.created_seq, n.id, n.date, n.content, n.created_at, n.updated_at, n.version
        FROM accounts a
        LEFT JOIN (
            SELECT seq, note_id, version, deleted, created_seq FROM note_changes
            WHERE account_id = ?1 AND seq > ?2 AND (deleted = 0 OR created_seq <= ?2)
            ORDER BY seq LIMIT ?3) c ON 1
        LEFT JOIN notes n ON n.id = c.note_id AND n.account_id = ?1 AND c.deleted = 0
        WHERE a.id = ?1
        ORDER BY c.seq
        """

    public func changes(
        account: Int64, after cursor: Int64?, limit: Int
    ) async throws(StoreError) -> FeedRead {
        try await read { connection throws(SQLiteError) in
            let statement = try connection.statement(Self.changesAfter)
            try statement.bind(
                .integer(account), .integer(cursor ?? 0), .integer(Int64(max(0, limit)) + 1))
            var rows: [FeedRead.Row] = []
            var position: Int64 = 0
            var purged: Int64 = 0
            while try statement.step() {
                position = statement.int64(0)
                purged = statement.int64(1)
                guard !statement.isNull(2) else { continue }
                rows.append(
                    FeedRead.Row(
                        sequence: statement.int64(2), noteID: statement.int64(3),
                        version: statement.int64(4), deleted: statement.int64(5) != 0,
                        createdSequence: statement.int64(6),
                        note: statement.isNull(7)
                            ? nil : try Self.note(from: statement, startingAt: 7))
                )
            }
            return FeedRead.assemble(
                rows: rows, position: position, purged: purged, after: cursor, limit: limit)
        }
    }

    public func changePosition(account: Int64) async throws(StoreError) -> Int64 {
        try await read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                "SELECT change_seq FROM accounts WHERE id = ?")
            try statement.bind(.integer(account))
            return try statement.step() ? statement.int64(0) : 0
        }
    }

    public func purgeChanges(removedBefore: Int64) async throws(StoreError) -> Int {
        // [revision] Tombstones and purge marks are no part of a legacy query's answer:
        // the purge leaves every kept answer current.
        try await writing(touching: { _ in .accounts([]) }) { connection throws(SQLiteError) in
            // The mark first, from the tombstones about to go: a cursor before any of them
            // can no longer be answered for.
            let mark = try connection.statement(
                """
                UPDATE accounts SET purged_seq = gone.seq
                FROM (SELECT account_id, max(seq) AS seq FROM note_changes
                    WHERE deleted = 1 AND changed_at < ?1 GROUP BY account_id) AS gone
                WHERE accounts.id = gone.account_id AND gone.seq > accounts.purged_seq
                """)
            try mark.bind(.integer(removedBefore)).run()
            let purge = try connection.statement(
                "DELETE FROM note_changes WHERE deleted = 1 AND changed_at < ?1")
            try purge.bind(.integer(removedBefore)).run()
            return connection.changes
        }
    }

    public func observeChanges(_ observer: @escaping @Sendable (ChangeSignal) -> Void) {
        changeObservers.add(observer)
    }
}
