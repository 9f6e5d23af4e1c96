import MyNotesDomain

extension PostgreSQLNoteStore {
    static let noteColumns = "id, date, content, created_at, updated_at, version"

    public func notes(account: Int64, page: NotePage) async throws(StoreError) -> [Note] {
        let indexer = searchIndexer
        return try await read { connection throws(PostgreSQLError) in
            try Self.notes(account: account, page: page, indexer: indexer, on: connection)
        }
    }

    public func checkedNotes(
        email: String, presenting tokenHash: [UInt8]?,
        admitting admit: @escaping @Sendable (TokenCheck?) -> Bool, page: NotePage
    ) async throws(StoreError) -> (check: TokenCheck?, notes: [Note]) {
        let indexer = searchIndexer
        // A search takes more than one statement (PostgreSQLNoteStore+Search).
        guard page.after == nil, page.containing.map(TextFolding.fold)?.isEmpty ?? true else {
            return try await read { connection throws(PostgreSQLError) in
                let check = try Self.tokenCheck(
                    email: email, presenting: tokenHash, on: connection)
                guard admit(check), let account = check?.account else { return (check, []) }
                return (
                    check,
                    try Self.notes(
                        account: account.id, page: page, indexer: indexer, on: connection)
                )
            }
        }
        // The first page, the legacy query's: the check and, only for an account that holds
        // the token, its notes, in one statement, sent with the other reads waiting for it.
        let parameters: [PostgreSQLValue] = [
            tokenHash.map(PostgreSQLValue.bytes) ?? .null, .text(Self.emailKey(email)),
            .integer(Int64(max(0, page.limit))),
        ]
        return try await batchedReads.read(Self.checkedFirstPage, parameters) {
            rows, connection throws(PostgreSQLError) in
            guard rows.count > 0, !rows.isNull(0, 0) else {
                // No such account: `admit` still decides (and sees) the check, as it does
                // on every path.
                _ = admit(nil)
                return (nil, [])
            }
            let check = Self.tokenCheck(rows)
            guard admit(check) else { return (check, []) }
            guard check.holdsToken else {
                // Admitted without the token (email-only mode): the page, read now.
                return (
                    check,
                    try Self.notes(
                        account: check.account.id, page: page, indexer: indexer, on: connection)
                )
            }
            var notes: [Note] = []
            for row in 0..<rows.count where !rows.isNull(row, 9) {
                notes.append(try Self.note(rows, row, startingAt: 9))
            }
            return (check, notes)
        }
    }

    /// The token check of ``tokenCheck(email:presenting:on:)`` and the first page of notes,
    /// which the lateral join reads only when the account holds the token.
    private static let checkedFirstPage = """
        SELECT a.id, a.email, a.password_hash, a.created_at,
            t.account_id, \(sessionColumns),
            n.id, n.date, n.content, n.created_at, n.updated_at, n.version
        FROM (SELECT 1) AS one
        LEFT JOIN accounts a ON a.email_key = $2
        LEFT JOIN tokens t ON t.hash = $1
        LEFT JOIN LATERAL (
            SELECT id, date, content, created_at, updated_at, version, sort_key FROM notes
            WHERE account_id = a.id AND t.account_id = a.id
            ORDER BY sort_key DESC, id DESC
            LIMIT $3) n ON true
        ORDER BY n.sort_key DESC, n.id DESC
        """

    /// One page of the account's notes. Search compares the note's content folded by
    /// ``TextFolding`` when it was written (`folded_content`), so both stores match alike
    /// whatever the database's locale; a search may be answered with a search index
    /// (PostgreSQLNoteStore+Search).
    static func notes(
        account: Int64, page: NotePage, indexer: PostgreSQLSearchIndexer? = nil,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> [Note] {
        let needle = page.containing.map(TextFolding.fold).flatMap { $0.isEmpty ? nil : $0 }
        let limit = max(0, page.limit)
        if let needle {
            return try search(
                account: account, after: page.after, needle: needle, limit: limit,
                indexer: indexer, on: connection)
        }
        return try walk(
            account: account, after: page.after, needle: nil, limit: limit, on: connection)
    }

    /// The account's notes in page order from `after`, those holding `needle` when given,
    /// up to `limit`: the index `(account_id, sort_key, id)` read until the page is full.
    static func walk(
        account: Int64, after: NotePosition?, needle: String?, limit: Int,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> [Note] {
        // Two statements, not one with `$2 IS NULL OR …`: a generic plan keeps the
        // cursor's bound as an index bound only when it is unconditional.
        let rows: PostgreSQLRows
        if let after {
            rows = try connection.query(
                pageAfterCursor, .integer(account), .text(after.sortKey), .integer(after.id),
                needle.map(PostgreSQLValue.text) ?? .null, .integer(Int64(limit)))
        } else {
            rows = try connection.query(
                pageFromNewest, .integer(account), needle.map(PostgreSQLValue.text) ?? .null,
                .integer(Int64(limit)))
        }
        return try notes(rows)
    }

    static let pageFromNewest = """
        SELECT \(noteColumns) FROM notes
        WHERE account_id = $1 AND ($2::text IS NULL OR strpos(folded_content, $2::text) > 0)
        ORDER BY sort_key DESC, id DESC
        LIMIT $3
        """

    private static let pageAfterCursor = """
        SELECT \(noteColumns) FROM notes
        WHERE account_id = $1 AND (sort_key, id) < ($2::text, $3::bigint)
            AND ($4::text IS NULL OR strpos(folded_content, $4::text) > 0)
        ORDER BY sort_key DESC, id DESC
        LIMIT $5
        """

    public func note(id: Int64, account: Int64) async throws(StoreError) -> Note? {
        try await read { connection throws(PostgreSQLError) in
            try Self.note(id: id, account: account, on: connection)
        }
    }

    public func addNote(
        _ draft: NoteDraft, account: Int64, quota: NoteQuota
    ) async throws(StoreError) -> Note {
        try await adds.add(draft, account: account, quota: quota)
    }

    public func updateNote(
        id: Int64, account: Int64, change: NoteChange, precondition: WritePrecondition,
        quota: NoteQuota
    ) async throws(StoreError) -> ConditionalWrite<Note> {
        guard let content = change.content, let limit = quota.bytes else {
            return try await update(
                id: id, account: account, change: change, precondition: precondition)
        }
        // A longer content may pass the byte quota: checked under the account's row lock,
        // after the precondition, as SQLite's store does.
        let outcome = try await write {
            connection throws(PostgreSQLError) -> Result<ConditionalWrite<Note>, StoreError> in
            try connection.transaction { () throws(PostgreSQLError) in
                let held = try connection.query(
                    """
                    SELECT a.note_bytes, octet_length(n.content), n.version
                    FROM notes n JOIN accounts a ON a.id = n.account_id
                    WHERE n.account_id = $1 AND n.id = $2 FOR UPDATE
                    """, .integer(account), .integer(id))
                guard held.count > 0 else {
                    return .success(
                        try Self.refusal(precondition, id: id, account: account, on: connection))
                }
                if case .matches(let versions) = precondition,
                    !versions.contains(held.int64(0, 2))
                {
                    return .success(
                        try Self.refusal(precondition, id: id, account: account, on: connection))
                }
                let growth = content.utf8.count - Int(held.int64(0, 1))
                if let passed = NoteQuota(notes: nil, bytes: limit).exceeded(
                    growingBy: growth, from: Int(held.int64(0, 0)))
                {
                    return .failure(.quotaExceeded(passed))
                }
                return .success(
                    try Self.update(
                        id: id, account: account, change: change, precondition: precondition,
                        on: connection))
            }
        }
        return try outcome.get()
    }

    private func update(
        id: Int64, account: Int64, change: NoteChange, precondition: WritePrecondition
    ) async throws(StoreError) -> ConditionalWrite<Note> {
        try await write { connection throws(PostgreSQLError) in
            try Self.update(
                id: id, account: account, change: change, precondition: precondition,
                on: connection)
        }
    }

    private static func update(
        id: Int64, account: Int64, change: NoteChange, precondition: WritePrecondition,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> ConditionalWrite<Note> {
        // The version condition is part of the UPDATE: PostgreSQL re-checks it on the
        // row as it is once any concurrent write has committed, so nothing can come
        // between the check and the change. Fields left out keep the row's values.
        let rows = try connection.query(
            """
            UPDATE notes SET date = coalesce($1, date), sort_key = coalesce($2, sort_key),
                content = coalesce($3, content),
                folded_content = coalesce($4, folded_content),
                updated_at = \(Self.now), version = version + 1
            WHERE account_id = $5 AND id = $6
                AND ($7::bigint[] IS NULL OR version = ANY($7::bigint[]))
            RETURNING \(Self.noteColumns)
            """, change.date.map { .text($0.description) } ?? .null,
            change.date.map { .text($0.sortKey) } ?? .null,
            change.content.map(PostgreSQLValue.text) ?? .null,
            change.content.map { .text(TextFolding.fold($0)) } ?? .null,
            .integer(account), .integer(id), Self.versions(precondition))
        if rows.count > 0 { return .applied(try Self.note(rows, 0)) }
        return try Self.refusal(precondition, id: id, account: account, on: connection)
    }

    public func removeNote(
        id: Int64, account: Int64, precondition: WritePrecondition
    ) async throws(StoreError) -> ConditionalWrite<Void> {
        try await write { connection throws(PostgreSQLError) in
            let removed = try connection.query(
                """
                DELETE FROM notes WHERE account_id = $1 AND id = $2
                    AND ($3::bigint[] IS NULL OR version = ANY($3::bigint[]))
                """, .integer(account), .integer(id), Self.versions(precondition)
            ).affectedRows
            if removed > 0 { return .applied(()) }
            return try Self.refusal(precondition, id: id, account: account, on: connection)
        }
    }

    /// The versions a write is conditioned on, `NULL` for any.
    private static func versions(_ precondition: WritePrecondition) -> PostgreSQLValue {
        guard case .matches(let versions) = precondition else { return .null }
        return .integers(versions.sorted())
    }

    /// Why a conditional write that changed no row did not: no such note, or (for a
    /// version condition) the note as it is now.
    private static func refusal<Value>(
        _ precondition: WritePrecondition, id: Int64, account: Int64,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> ConditionalWrite<Value> {
        switch precondition {
        case .none: return .notFound
        case .exists: return .preconditionFailed(current: nil)
        case .matches:
            guard let current = try note(id: id, account: account, on: connection) else {
                return .notFound
            }
            return .preconditionFailed(current: current)
        }
    }

    private static func note(
        id: Int64, account: Int64, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> Note? {
        let rows = try connection.query(
            "SELECT \(noteColumns) FROM notes WHERE account_id = $1 AND id = $2",
            .integer(account), .integer(id))
        return rows.count > 0 ? try note(rows, 0) : nil
    }

    /// A note from the columns of ``noteColumns`` in `row`, from `first` on; a date that
    /// does not parse (a hand-edited database) fails the read rather than the server.
    static func note(
        _ rows: PostgreSQLRows, _ row: Int, startingAt first: Int32 = 0
    ) throws(PostgreSQLError) -> Note {
        let id = rows.int64(row, first)
        guard let date = rows.noteDate(row, first + 1) else {
            throw .corruptRow(
                StoreError.unreadableDate(rows.text(row, first + 1), ofNote: id), sql: nil)
        }
        return Note(
            id: id, date: date, content: rows.text(row, first + 2),
            createdAt: rows.int64(row, first + 3), updatedAt: rows.int64(row, first + 4),
            version: rows.int64(row, first + 5))
    }

    /// Every row's note, as ``note(_:_:startingAt:)`` reads it.
    static func notes(_ rows: PostgreSQLRows) throws(PostgreSQLError) -> [Note] {
        var notes: [Note] = []
        notes.reserveCapacity(rows.count)
        for row in 0..<rows.count { notes.append(try note(rows, row)) }
        return notes
    }
}
