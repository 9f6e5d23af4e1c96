import MyNotesDomain
import StorageSupport

extension PostgreSQLNoteStore: TransferableStore {
    package func rowCounts() async throws(StoreError) -> StoreRows.Counts {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                """
                SELECT (SELECT count(*) FROM accounts), (SELECT count(*) FROM tokens),
                    (SELECT count(*) FROM notes)
                """)
            return StoreRows.Counts(
                accounts: Int(rows.int64(0, 0)), tokens: Int(rows.int64(0, 1)),
                notes: Int(rows.int64(0, 2)))
        }
    }

    package func accountRows() async throws(StoreError) -> [StoreRows.Account] {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                "SELECT \(Self.accountColumns) FROM accounts ORDER BY id")
            return (0..<rows.count).map { row in
                let account = Self.account(rows, row)
                return StoreRows.Account(
                    id: account.id, email: account.email, passwordHash: account.passwordHash,
                    createdAt: account.createdAt)
            }
        }
    }

    package func tokenRows() async throws(StoreError) -> [StoreRows.Token] {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                """
                SELECT hash, account_id, created_at, last_used_at, kind FROM tokens
                ORDER BY account_id, hash
                """)
            return (0..<rows.count).map { row in
                StoreRows.Token(
                    hash: rows.bytes(row, 0), accountID: rows.int64(row, 1),
                    createdAt: rows.int64(row, 2), lastUsedAt: rows.int64(row, 3),
                    kind: rows.text(row, 4))
            }
        }
    }

    package func noteRows(after: Int64, limit: Int) async throws(StoreError) -> [StoreRows.Note] {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                "SELECT \(Self.noteColumns), account_id FROM notes WHERE id > $1 ORDER BY id LIMIT $2",
                .integer(after), .integer(Int64(limit)))
            var notes: [StoreRows.Note] = []
            for row in 0..<rows.count {
                notes.append(
                    StoreRows.Note(accountID: rows.int64(row, 6), note: try Self.note(rows, row)))
            }
            return notes
        }
    }

    package func insert(accounts: [StoreRows.Account], tokens: [StoreRows.Token])
        async throws(StoreError)
    {
        try await write { connection throws(PostgreSQLError) in
            try connection.transaction { () throws(PostgreSQLError) in
                for account in accounts {
                    _ = try connection.query(
                        """
                        INSERT INTO accounts (id, email, email_key, password_hash, created_at)
                        VALUES ($1, $2, $3, $4, $5)
                        """, .integer(account.id), .text(account.email),
                        .text(Self.emailKey(account.email)),
                        account.passwordHash.map(PostgreSQLValue.text) ?? .null,
                        .integer(account.createdAt))
                }
                for token in tokens {
                    _ = try connection.query(
                        """
                        INSERT INTO tokens (hash, account_id, created_at, last_used_at, kind)
                        VALUES ($1, $2, $3, $4, $5)
                        """, .bytes(token.hash), .integer(token.accountID),
                        .integer(token.createdAt), .integer(token.lastUsedAt), .text(token.kind))
                }
            }
        }
    }

    package func insert(notes: [StoreRows.Note]) async throws(StoreError) {
        try await write { connection throws(PostgreSQLError) in
            try connection.transaction { () throws(PostgreSQLError) in
                for row in notes {
                    let note = row.note
                    _ = try connection.query(
                        """
                        INSERT INTO notes (account_id, id, date, sort_key, content, folded_content,
                            created_at, updated_at, version)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                        """, .integer(row.accountID), .integer(note.id),
                        .text(note.date.description), .text(note.date.sortKey), .text(note.content),
                        .text(TextFolding.fold(note.content)), .integer(note.createdAt),
                        .integer(note.updatedAt), .integer(note.version))
                }
            }
        }
    }

    /// Empties the store: one TRUNCATE (``emptyAll``), run again after a deadlock by the
    /// pool (an indexer's lookups take `accounts` before the progress, and a server's
    /// indexer starts with one at the moment `migrate --force` opens the store to empty it).
    package func removeAll() async throws(StoreError) {
        try await write { connection throws(PostgreSQLError) in
            try connection.execute(Self.emptyAll)
        }
    }

    /// Empties every table: the change feed's rows and the search chunks go
    /// too (they reference the accounts), and the previous release's search entries.
    ///
    /// The progress comes before the chunks, in the order an indexer's batch takes them, so
    /// that the TRUNCATE waits for a batch rather than deadlocking with it (the pool runs
    /// it again after the deadlocks no order avoids).
    static let emptyAll = """
        TRUNCATE search_chunks_progress, search_chunks, search_progress, search_entries,
            note_changes, notes, tokens, accounts
        """

    /// Identity columns count on from their own sequence, which rows inserted with their
    /// own IDs did not move.
    package func continueIDs() async throws(StoreError) {
        try await write { connection throws(PostgreSQLError) in
            for table in ["accounts", "notes"] {
                _ = try connection.query(
                    """
                    SELECT setval(pg_get_serial_sequence('\(table)', 'id'),
                        coalesce((SELECT max(id) FROM \(table)), 0) + 1, false)
                    """)
            }
        }
    }
}
