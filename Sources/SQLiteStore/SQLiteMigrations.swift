import MyNotesDomain

/// One step of the schema, known by its name. A step never changes once released.
struct SQLiteMigration: Sendable {
    let name: String
    let sql: String
}

/// The schema, as named steps applied in order at start-up, each once, in a transaction
/// of its own that also records its name in `schema_migrations`; a step is found by its
/// name, not by its place in the list.
///
/// The first step, ``baseline``, is the whole schema as it stood before the first release.
/// It replaces the seven steps of its development (``squashed``): a database made by those
/// steps records all seven names, and on its first opening by this code they are taken
/// for the baseline (``recognised(_:)``), whose name replaces them. Later changes are new
/// steps after it, never edits of it.
enum SQLiteMigrations {
    static let all: [SQLiteMigration] = [baseline]

    /// Every table, index, trigger and search table, exactly as the steps it replaces
    /// left them (a test compares the two schemas). In short:
    /// - `accounts`: the email (unique whatever its ASCII case), the password hash, and
    ///   running totals the triggers keep in the transaction of every write to `notes`
    ///   (cascades included): the note count and content bytes the storage quota reads in
    ///   one row, and the change feed's sequence, with the newest sequence purged;
    /// - `tokens`: sessions and the operator's access keys (`kind`), with their last use;
    /// - `notes`, with the version an ETag tells states apart by;
    /// - `note_changes`: each note's latest change, a removed note leaving a tombstone
    ///   until it is purged, so both APIs and every write path number changes alike;
    /// - the search index (``SQLiteSearchIndex``): FTS5 tables without content, the keys,
    ///   the folded copies of long notes, the notes waiting, and the index's state, which
    ///   starts as made by no known folding so that the store builds it on opening.
    static let baseline = SQLiteMigration(
        name: "baseline",
        sql: """
            CREATE TABLE accounts (
                id INTEGER PRIMARY KEY,
                email TEXT NOT NULL UNIQUE COLLATE NOCASE,
                created_at INTEGER NOT NULL,
                password_hash TEXT,
                note_count INTEGER NOT NULL DEFAULT 0,
                note_bytes INTEGER NOT NULL DEFAULT 0,
                change_seq INTEGER NOT NULL DEFAULT 0,
                purged_seq INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE notes (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                date TEXT NOT NULL,
                sort_key TEXT NOT NULL,
                content TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                version INTEGER NOT NULL DEFAULT 1
            );
            CREATE INDEX notes_by_account_newest ON notes (account_id, sort_key DESC, id DESC);
            CREATE TABLE tokens (
                hash BLOB PRIMARY KEY,
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                last_used_at INTEGER NOT NULL DEFAULT 0,
                kind TEXT NOT NULL DEFAULT 'session'
            ) WITHOUT ROWID;
            CREATE INDEX tokens_by_account ON tokens (account_id);
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
            CREATE VIRTUAL TABLE notes_trigrams USING fts5(
                folded, content = '', tokenize = 'trigram case_sensitive 1', columnsize = 0);
            CREATE VIRTUAL TABLE notes_grams USING fts5(
                grams, content = '', tokenize = 'ascii', detail = none, columnsize = 0);
            CREATE TABLE notes_search_keys (key INTEGER PRIMARY KEY, id INTEGER NOT NULL UNIQUE);
            CREATE TABLE notes_folded (id INTEGER PRIMARY KEY, folded TEXT NOT NULL);
            CREATE TABLE notes_search_pending (id INTEGER PRIMARY KEY);
            CREATE TABLE notes_search_state (
                only INTEGER PRIMARY KEY CHECK (only = 1),
                indexed_through INTEGER NOT NULL,
                folding INTEGER NOT NULL);
            INSERT INTO notes_search_state VALUES (1, 0, 0);
            CREATE VIRTUAL TABLE notes_fives USING fts5(
                fives, content = '', tokenize = 'ascii', detail = none, columnsize = 0);
            """)

    /// The steps ``baseline`` replaces, in the order they ran: a database that records
    /// all of them holds the baseline's schema.
    static let squashed = [
        "accounts-and-notes", "tokens-passwords-versions", "account-usage-totals",
        "token-last-use-and-kind", "change-feed", "notes-search-index", "notes-search-fives",
    ]

    /// The names of `recorded` as this code counts them: all of ``squashed`` count as
    /// ``baseline``. Some but not all of them cannot be upgraded (see ``apply(on:)``), and
    /// are left as they are.
    static func recognised(_ recorded: Set<String>) -> Set<String> {
        guard recorded.isSuperset(of: squashed) else { return recorded }
        return recorded.subtracting(squashed).union([baseline.name])
    }

    /// Brings the database up to date, each step in its own transaction; returns the names
    /// of the steps applied now. A database made by the steps the baseline replaces has
    /// their names replaced by the baseline's first, in a transaction of its own, keeping
    /// the time the first of them was applied; nothing else of it changes.
    ///
    /// A database that went only part of the way through those steps (a development
    /// build's of the week before the first release), or that counted them in
    /// `user_version` before they had names, is refused: the steps that would finish it
    /// are gone. A build from before the baseline finishes it; this one then upgrades it.
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

    /// The names applied, creating the record on the first opening of a new database and
    /// replacing the squashed steps' names by the baseline's.
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
            let counted = version.int64(0)
            connection.finishStatements()
            if counted != 0 { throw unfinished("steps counted in user_version (\(counted))") }
            try connection.execute(
                """
                CREATE TABLE schema_migrations (
                    name TEXT PRIMARY KEY,
                    applied_at INTEGER NOT NULL
                ) WITHOUT ROWID
                """)
        }
        let names = try connection.statement("SELECT name FROM schema_migrations")
        var applied = Set<String>()
        while try names.step() { applied.insert(names.text(0)) }
        connection.finishStatements()
        let squashedApplied = applied.intersection(squashed)
        if squashedApplied.isEmpty { return applied }
        guard squashedApplied.count == squashed.count else {
            throw unfinished(
                "only some of the steps before the baseline: "
                    + squashed.filter(applied.contains).joined(separator: ", "))
        }
        try connection.execute(
            """
            INSERT INTO schema_migrations (name, applied_at)
                SELECT '\(baseline.name)', min(applied_at) FROM schema_migrations
                WHERE name IN (\(squashed.map { "'\($0)'" }.joined(separator: ", ")));
            DELETE FROM schema_migrations
                WHERE name IN (\(squashed.map { "'\($0)'" }.joined(separator: ", ")));
            """)
        return recognised(applied)
    }

    /// The failure of a database whose schema stopped partway through the steps the
    /// baseline replaced.
    private static func unfinished(_ what: String) -> SQLiteError {
        SQLiteError(
            extendedCode: 1,
            message:
                "the database records \(what); open it once with a build from before the"
                + " baseline schema to finish them, then with this one",
            sql: nil)
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
