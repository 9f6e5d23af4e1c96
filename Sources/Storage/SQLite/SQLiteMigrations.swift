import MyNotesDomain

/// One step of the schema, known by its name. A step never changes once released.
struct SQLiteMigration: Sendable {
    let name: String
    let sql: String
}

/// The schema, as named steps applied in order at start-up. The table
/// `schema_migrations` records the names applied, so a step is found by name, not by
/// its place in the list.
///
/// Databases made before steps had names counted them in `user_version` (1 after the
/// first step, 2 after the second); on first opening, those first steps are recorded
/// by name as applied.
enum SQLiteMigrations {
    static let all: [SQLiteMigration] = [
        // Accounts and notes.
        SQLiteMigration(
            name: "accounts-and-notes",
            sql: """
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
                """),
        // Many tokens per account (sessions), passwords, note versions for ETags.
        // Each account's one token moves into `tokens`; `token_hash` goes away so no
        // code can check the old single token by mistake.
        SQLiteMigration(
            name: "tokens-passwords-versions",
            sql: """
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
                """),
        // Running totals for the storage quota (issue 10): each account's note count and
        // content bytes, kept by triggers in the transaction of every write to `notes`
        // (cascades included), so a quota check reads one row instead of summing notes.
        SQLiteMigration(
            name: "account-usage-totals",
            sql: """
                ALTER TABLE accounts ADD COLUMN note_count INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE accounts ADD COLUMN note_bytes INTEGER NOT NULL DEFAULT 0;
                UPDATE accounts SET
                    note_count = (SELECT count(*) FROM notes WHERE account_id = accounts.id),
                    note_bytes = (SELECT coalesce(sum(length(CAST(content AS BLOB))), 0)
                        FROM notes WHERE account_id = accounts.id);
                CREATE TRIGGER notes_usage_after_insert AFTER INSERT ON notes BEGIN
                    UPDATE accounts SET note_count = note_count + 1,
                        note_bytes = note_bytes + length(CAST(NEW.content AS BLOB))
                    WHERE id = NEW.account_id;
                END;
                CREATE TRIGGER notes_usage_after_delete AFTER DELETE ON notes BEGIN
                    UPDATE accounts SET note_count = note_count - 1,
                        note_bytes = note_bytes - length(CAST(OLD.content AS BLOB))
                    WHERE id = OLD.account_id;
                END;
                CREATE TRIGGER notes_usage_after_update AFTER UPDATE OF content ON notes BEGIN
                    UPDATE accounts SET note_bytes = note_bytes
                        - length(CAST(OLD.content AS BLOB)) + length(CAST(NEW.content AS BLOB))
                    WHERE id = NEW.account_id;
                END;
                """),
        // Sessions expire (issue 10): when each token was last used, and what issued it.
        // Until now a use was never recorded, so a token's last use starts as its
        // creation. Tokens of accounts without a password can only be the operator's
        // access keys; every other is taken for a session, which time may end.
        SQLiteMigration(
            name: "token-last-use-and-kind",
            sql: """
                ALTER TABLE tokens ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0;
                UPDATE tokens SET last_used_at = created_at;
                ALTER TABLE tokens ADD COLUMN kind TEXT NOT NULL DEFAULT 'session';
                UPDATE tokens SET kind = 'key'
                    WHERE account_id IN (SELECT id FROM accounts WHERE password_hash IS NULL);
                """),
        // The change feed (issue 12): each account's change sequence and, per note, its
        // latest change (one row per note; a removed note leaves a tombstone until it is
        // purged). One trigger per kind of write keeps both, with the usage totals, in one
        // UPDATE of the account's row, in the transaction of every write to `notes`, so
        // both APIs and every write path number their changes alike. Notes already stored
        // get a change each, so a full sync lists them.
        SQLiteMigration(
            name: "change-feed",
            sql: """
                ALTER TABLE accounts ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE accounts ADD COLUMN purged_seq INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE note_changes (
                    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    note_id INTEGER NOT NULL,
                    seq INTEGER NOT NULL,
                    created_seq INTEGER NOT NULL,
                    version INTEGER NOT NULL,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    changed_at INTEGER NOT NULL,
                    PRIMARY KEY (account_id, note_id)
                ) WITHOUT ROWID;
                CREATE UNIQUE INDEX note_changes_by_seq ON note_changes (account_id, seq);
                CREATE INDEX note_changes_tombstones ON note_changes (changed_at) WHERE deleted = 1;
                INSERT INTO note_changes
                    (account_id, note_id, seq, created_seq, version, deleted, changed_at)
                    SELECT account_id, id,
                        row_number() OVER (PARTITION BY account_id ORDER BY id),
                        row_number() OVER (PARTITION BY account_id ORDER BY id),
                        version, 0, updated_at
                    FROM notes;
                UPDATE accounts SET change_seq = note_count;
                DROP TRIGGER notes_usage_after_insert;
                DROP TRIGGER notes_usage_after_delete;
                DROP TRIGGER notes_usage_after_update;
                CREATE TRIGGER notes_after_insert AFTER INSERT ON notes BEGIN
                    UPDATE accounts SET note_count = note_count + 1,
                        note_bytes = note_bytes + length(CAST(NEW.content AS BLOB)),
                        change_seq = change_seq + 1
                    WHERE id = NEW.account_id;
                    INSERT INTO note_changes
                        (account_id, note_id, seq, created_seq, version, deleted, changed_at)
                        SELECT id, NEW.id, change_seq, change_seq, NEW.version, 0, NEW.updated_at
                        FROM accounts WHERE id = NEW.account_id
                    ON CONFLICT (account_id, note_id) DO UPDATE SET seq = excluded.seq,
                        created_seq = excluded.created_seq, version = excluded.version,
                        deleted = 0, changed_at = excluded.changed_at;
                END;
                CREATE TRIGGER notes_after_update AFTER UPDATE ON notes BEGIN
                    UPDATE accounts SET note_bytes = note_bytes
                            - length(CAST(OLD.content AS BLOB)) + length(CAST(NEW.content AS BLOB)),
                        change_seq = change_seq + 1
                    WHERE id = NEW.account_id;
                    INSERT INTO note_changes
                        (account_id, note_id, seq, created_seq, version, deleted, changed_at)
                        SELECT id, NEW.id, change_seq, change_seq, NEW.version, 0, NEW.updated_at
                        FROM accounts WHERE id = NEW.account_id
                    ON CONFLICT (account_id, note_id) DO UPDATE SET seq = excluded.seq,
                        version = excluded.version, deleted = 0, changed_at = excluded.changed_at;
                END;
                CREATE TRIGGER notes_after_delete AFTER DELETE ON notes BEGIN
                    UPDATE accounts SET note_count = note_count - 1,
                        note_bytes = note_bytes - length(CAST(OLD.content AS BLOB)),
                        change_seq = change_seq + 1
                    WHERE id = OLD.account_id;
                    INSERT INTO note_changes
                        (account_id, note_id, seq, created_seq, version, deleted, changed_at)
                        SELECT id, OLD.id, change_seq, change_seq, OLD.version, 1,
                            CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
                        FROM accounts WHERE id = OLD.account_id
                    ON CONFLICT (account_id, note_id) DO UPDATE SET seq = excluded.seq,
                        version = excluded.version, deleted = 1, changed_at = excluded.changed_at;
                END;
                """),
        // The search index's tables (issue 15); the store fills them after the migrations.
        SQLiteSearchIndex.migration,
        // Five-character pieces for queries of five or more characters (issue 15).
        SQLiteSearchIndex.fivesMigration,
    ]

    /// Brings the database up to date, each step in its own transaction; returns the names
    /// of the steps applied now.
    @discardableResult
    static func apply(on connection: SQLiteConnection) throws(SQLiteError) -> [String] {
        let applied = try transaction(on: connection) { () throws(SQLiteError) in
            try recordedNames(on: connection)
        }
        var now: [String] = []
        for migration in all where !applied.contains(migration.name) {
            try transaction(on: connection) { () throws(SQLiteError) in
                try connection.execute(migration.sql)
                try record(migration.name, on: connection)
            }
            now.append(migration.name)
        }
        return now
    }

    /// The names applied, creating the record (and taking over a `user_version` count)
    /// on the first opening by this code.
    private static func recordedNames(on connection: SQLiteConnection) throws(SQLiteError)
        -> Set<String>
    {
        let exists = try connection.statement(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'")
        let hasTable = try exists.step()
        connection.finishStatements()
        if !hasTable {
            let version = try connection.statement("PRAGMA user_version")
            _ = try version.step()
            let counted = Int(version.int64(0))
            connection.finishStatements()
            try connection.execute(
                """
                CREATE TABLE schema_migrations (
                    name TEXT PRIMARY KEY,
                    applied_at INTEGER NOT NULL
                ) WITHOUT ROWID
                """)
            for migration in all.prefix(counted) { try record(migration.name, on: connection) }
        }
        let names = try connection.statement("SELECT name FROM schema_migrations")
        var applied = Set<String>()
        while try names.step() { applied.insert(names.text(0)) }
        connection.finishStatements()
        return applied
    }

    private static func record(_ name: String, on connection: SQLiteConnection) throws(SQLiteError)
    {
        let insert = try connection.statement(
            "INSERT INTO schema_migrations (name, applied_at) VALUES (?, CAST(strftime('%s', 'now') AS INTEGER) * 1000)"
        )
        try insert.bind(.text(name)).run()
        connection.finishStatements()
    }

    /// Runs `body` in a transaction of its own (the search index's build uses it too).
    static func transaction<Value>(
        on connection: SQLiteConnection, _ body: () throws(SQLiteError) -> Value
    ) throws(SQLiteError) -> Value {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try connection.execute("COMMIT")
            return value
        } catch {
            connection.finishStatements()
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
