/// The schema, as numbered steps applied in order at start-up. A step never changes
/// once released; the database's `user_version` records the last one applied.
enum SQLiteMigrations {
    static let steps: [String] = [
        // 1: accounts and notes.
        """
        CREATE TABLE accounts (
            id INTEGER PRIMARY KEY,
            email TEXT NOT NULL UNIQUE COLLATE NOCASE,
            token_hash BLOB NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE notes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            date TEXT NOT NULL,
            sort_key TEXT NOT NULL,
            content TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );
        CREATE INDEX notes_by_account_newest ON notes (account_id, sort_key DESC, id DESC);
        """,
        // 2: many tokens per account (sessions), passwords, note versions for ETags.
        // Each account's one token moves into `tokens`; `token_hash` goes away so no
        // code can check the old single token by mistake.
        """
        CREATE TABLE tokens (
            hash BLOB PRIMARY KEY,
            account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            created_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX tokens_by_account ON tokens (account_id);
        INSERT OR IGNORE INTO tokens (hash, account_id, created_at)
            SELECT token_hash, id, created_at FROM accounts WHERE length(token_hash) > 0;
        ALTER TABLE accounts DROP COLUMN token_hash;
        ALTER TABLE accounts ADD COLUMN password_hash TEXT;
        ALTER TABLE notes ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
        """,
    ]

    /// Brings the database up to the newest step, each step in its own transaction.
    static func apply(on connection: SQLiteConnection) throws(SQLiteError) {
        let current = try connection.statement("PRAGMA user_version")
        _ = try current.step()
        let applied = Int(current.int64(0))
        connection.finishStatements()
        guard applied < steps.count else { return }
        for (index, step) in steps.enumerated().dropFirst(applied) {
            try connection.execute("BEGIN IMMEDIATE")
            do {
                try connection.execute(step)
                try connection.execute("PRAGMA user_version = \(index + 1)")
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }
}
