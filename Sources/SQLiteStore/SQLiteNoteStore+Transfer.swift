import MyNotesDomain
import StorageSupport

extension SQLiteNoteStore: TransferableStore {
    package func rowCounts() async throws(StoreError) -> StoreRows.Counts {
        try await read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                """
                SELECT (SELECT count(*) FROM accounts), (SELECT count(*) FROM tokens),
                    (SELECT count(*) FROM notes)
                """)
            _ = try statement.step()
            return StoreRows.Counts(
                accounts: Int(statement.int64(0)), tokens: Int(statement.int64(1)),
                notes: Int(statement.int64(2)))
        }
    }

    package func accountRows() async throws(StoreError) -> [StoreRows.Account] {
        try await read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                "SELECT id, email, password_hash, created_at FROM accounts ORDER BY id")
            var rows: [StoreRows.Account] = []
            while try statement.step() {
                let account = Self.account(from: statement)
                rows.append(
                    StoreRows.Account(
                        id: account.id, email: account.email, passwordHash: account.passwordHash,
                        createdAt: account.createdAt))
            }
            return rows
        }
    }

    package func tokenRows() async throws(StoreError) -> [StoreRows.Token] {
        try await read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                """
                SELECT hash, account_id, created_at, last_used_at, kind FROM tokens
                ORDER BY account_id, hash
                """)
            var rows: [StoreRows.Token] = []
            while try statement.step() {
                rows.append(
                    StoreRows.Token(
                        hash: statement.blob(0), accountID: statement.int64(1),
                        createdAt: statement.int64(2), lastUsedAt: statement.int64(3),
                        kind: statement.text(4)))
            }
            return rows
        }
    }

    package func noteRows(after: Int64, limit: Int) async throws(StoreError) -> [StoreRows.Note] {
        try await read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                "SELECT \(Self.noteColumns), account_id FROM notes WHERE id > ? ORDER BY id LIMIT ?"
            )
            try statement.bind(.integer(after), .integer(Int64(limit)))
            var rows: [StoreRows.Note] = []
            while try statement.step() {
                rows.append(
                    StoreRows.Note(
                        accountID: statement.int64(6), note: try Self.note(from: statement)))
            }
            return rows
        }
    }

    package func insert(accounts: [StoreRows.Account], tokens: [StoreRows.Token])
        async throws(StoreError)
    {
        try await writing { connection throws(SQLiteError) in
            for account in accounts {
                let insert = try connection.statement(
                    "INSERT INTO accounts (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)"
                )
                try insert.bind(
                    .integer(account.id), .text(account.email),
                    account.passwordHash.map(SQLiteValue.text) ?? .null,
                    .integer(account.createdAt)
                ).run()
            }
            for token in tokens {
                let insert = try connection.statement(
                    """
                    INSERT INTO tokens (hash, account_id, created_at, last_used_at, kind)
                    VALUES (?, ?, ?, ?, ?)
                    """)
                try insert.bind(
                    .blob(token.hash), .integer(token.accountID), .integer(token.createdAt),
                    .integer(token.lastUsedAt), .text(token.kind)
                )
                .run()
            }
        }
    }

    package func insert(notes: [StoreRows.Note]) async throws(StoreError) {
        try await writing { connection throws(SQLiteError) in
            for row in notes {
                let insert = try connection.statement(
                    """
                    INSERT INTO notes (id, account_id, date, sort_key, content, created_at,
                        updated_at, version)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                let note = row.note
                try insert.bind(
                    .integer(note.id), .integer(row.accountID), .text(note.date.description),
                    .text(note.date.sortKey), .text(note.content), .integer(note.createdAt),
                    .integer(note.updatedAt), .integer(note.version)
                ).run()
                try SQLiteSearchIndex.inserted(id: note.id, on: connection)
            }
            // Indexed in the same transaction: a restore's notes are found at once, and
            // searches do not test them one by one until batches take them.
            while try !SQLiteSearchIndex.indexWaiting(
                on: connection, limit: SQLiteSearchIndex.buildBatch
            ).isLast {}
        }
    }

    package func removeAll() async throws(StoreError) {
        try await writing { connection throws(SQLiteError) in
            try SQLiteSearchIndex.removeAll(on: connection)
            try connection.execute("DELETE FROM notes; DELETE FROM tokens; DELETE FROM accounts")
        }
    }

    /// AUTOINCREMENT already continues above the highest ID inserted.
    package func continueIDs() async throws(StoreError) {}
}
