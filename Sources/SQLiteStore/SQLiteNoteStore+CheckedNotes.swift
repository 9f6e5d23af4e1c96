import MyNotesDomain

extension SQLiteNoteStore {
    public func checkedNotes(
        email: String, presenting tokenHash: [UInt8]?,
        admitting admit: @escaping @Sendable (TokenCheck?) -> Bool, page: NotePage
    ) async throws(StoreError) -> (check: TokenCheck?, notes: [Note]) {
        let searchIndexer = self.searchIndexer
        return try await read { connection throws(SQLiteError) in
            let check = try Self.tokenCheck(email: email, presenting: tokenHash, on: connection)
            guard admit(check), let account = check?.account else { return (check, []) }
            let notes = try Self.notes(
                account: account.id, page: page, on: connection, indexer: searchIndexer)
            return (check, notes)
        }
    }

    /// One row whether or not the account exists: the token is looked up in its own index
    /// either way (not only for an account that was found, and not joined on the account),
    /// and the outer `LEFT JOIN` searches the email index either way, so a missing account
    /// costs what a wrong token does.
    static func tokenCheck(
        email: String, presenting tokenHash: [UInt8]?, on connection: SQLiteConnection
    ) throws(SQLiteError) -> TokenCheck? {
        let statement = try connection.statement(
            """
            SELECT a.id, a.email, a.password_hash, a.created_at,
                t.account_id, t.hash, t.kind, t.created_at, t.last_used_at
            FROM (SELECT 1) LEFT JOIN accounts a ON a.email = ?2
                LEFT JOIN tokens t ON t.hash = ?1
            """)
        try statement.bind(tokenHash.map(SQLiteValue.blob) ?? .null, .text(email))
        _ = try statement.step()
        // Both comparisons run on either path; only their results differ.
        let found = !statement.isNull(0)
        let holder = statement.isNull(4) ? -1 : statement.int64(4)
        let holds = holder == statement.int64(0)
        let session = session(from: statement, startingAt: 5)
        guard found else { return nil }
        return TokenCheck(
            account: account(from: statement), holdsToken: holds, session: holds ? session : nil)
    }
}
