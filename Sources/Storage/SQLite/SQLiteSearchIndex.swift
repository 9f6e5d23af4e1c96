/// The notes' search index (issue 15): substring search without reading every note.
///
/// Two FTS5 tables without content (the index alone, no copy of the text), keyed by the
/// note's id, and a folded copy of long notes:
/// - `notes_trigrams`: the `trigram` tokenizer over the note's text folded by
///   ``TextFolding`` (case-sensitive, since the text is folded already): a query of three
///   or more characters is a phrase of its trigrams, which matches exactly where the
///   folded query is a substring of the folded note. With positions: without them
///   (`detail=none`, less than half the size) a query could only ask for notes holding
///   all its trigrams anywhere, and for a piece of common syllables (`a rena`) 97% of
///   those candidates were not matches, each read and tested;
/// - `notes_grams`: each note's distinct one- and two-character pieces, as hexadecimal
///   words (``SearchIndexEntry``), without positions: a query of one or two characters
///   (`会议`) is one word;
/// - `notes_folded`: the folded text of notes of ``SearchIndexEntry/foldedCopyBytes`` or
///   more, so that testing a long note never folds it again.
/// Every candidate is tested on its folded text (`mynotes_contains`), so answers are exactly a
/// scan's.
///
/// The store's write methods keep them in step in the write's own transaction, so a note
/// is found as soon as its write is acknowledged. There are no triggers: the folding is
/// Swift's, and a trigger calling it would break every other writer (the `sqlite3` shell).
/// `notes_search_state` records the highest note id indexed: notes above it (all of them
/// after the migration, and those written since by other programs) are indexed when the
/// store next opens the database (``indexMissingNotes(on:progress:)``). It also records
/// a fingerprint of the folding's tables: removing a note from a table without content
/// means handing FTS5 the very text it indexed, so when a new Swift runtime folds
/// differently, the index is rebuilt.
///
/// A page of a search first walks the account's newest notes (after the cursor), testing
/// their folded text, for at most ``walkNotes`` notes and ``walkCharacters`` characters: a
/// common word fills its page there, in the order pages need, without touching the index.
/// Only when the walk neither fills the page nor reaches the account's end does the index
/// answer.
enum SQLiteSearchIndex {
    /// Notes a page's walk tests before it asks the index.
    static let walkNotes = 250
    /// Characters of text a page's walk reads before it asks the index.
    static let walkCharacters = 2_000_000
    /// Notes indexed per transaction while the index is built.
    static let buildBatch = 2_000
    /// Notes, and bytes of their folded text, that wait in `notes_search_pending` before
    /// they move into the FTS5 tables in one go (checked every ``pendingCheck`` ids).
    static let pendingNotes = 1_000
    static let pendingBytes = 1 << 20
    static let pendingCheck: Int64 = 64
    static let migration = SQLiteMigration(
        name: "notes-search-index",
        sql: """
            CREATE VIRTUAL TABLE notes_trigrams USING fts5(
                folded, content = '', tokenize = 'trigram case_sensitive 1', columnsize = 0);
            CREATE VIRTUAL TABLE notes_grams USING fts5(
                grams, content = '', tokenize = 'ascii', detail = none, columnsize = 0);
            CREATE TABLE notes_folded (id INTEGER PRIMARY KEY, folded TEXT NOT NULL);
            CREATE TABLE notes_search_pending (id INTEGER PRIMARY KEY, folded TEXT NOT NULL);
            CREATE TABLE notes_search_state (
                only INTEGER PRIMARY KEY CHECK (only = 1),
                indexed_through INTEGER NOT NULL,
                folding INTEGER NOT NULL);
            INSERT INTO notes_search_state VALUES (1, 0, 0);
            """)

    // MARK: Writes

    /// Indexes a note just added, whose content folds to `folded`, and hands it back (for
    /// the store's write methods, which fold before the write reaches the writer's thread).
    static func indexed(_ note: Note, folded: String, on connection: SQLiteConnection)
        throws(SQLiteError) -> Note
    {
        try add(id: note.id, folded: folded, on: connection)
        return note
    }

    /// Indexes a new note (or a note's new content, after ``remove(id:account:on:)``).
    static func add(id: Int64, content: String, on connection: SQLiteConnection)
        throws(SQLiteError)
    {
        try add(id: id, folded: TextFolding.fold(content), on: connection)
    }

    /// A write's new entry waits in `notes_search_pending`, one row on the table's last
    /// page: a write to the FTS5 tables at every commit would write a new segment of each
    /// (a few pages, and their merges), which doubled the cost of a durable add. Every
    /// ``pendingCheck`` ids the waiting entries move into the FTS5 tables once there are
    /// ``pendingNotes`` of them or ``pendingBytes`` of text, in that write's transaction.
    static func add(id: Int64, folded: String, on connection: SQLiteConnection)
        throws(SQLiteError)
    {
        try connection.statement("INSERT INTO notes_search_pending (id, folded) VALUES (?, ?)")
            .bind(.integer(id), .text(folded)).run()
        guard id % pendingCheck == 0 else { return }
        let waiting = try connection.statement(
            "SELECT count(*), coalesce(sum(length(CAST(folded AS BLOB))), 0) FROM notes_search_pending"
        )
        _ = try waiting.step()
        let (notes, bytes) = (waiting.int64(0), waiting.int64(1))
        waiting.reset()
        if notes >= pendingNotes || bytes >= pendingBytes { try movePending(on: connection) }
    }

    /// Moves the entries waiting in `notes_search_pending` into the FTS5 tables.
    static func movePending(on connection: SQLiteConnection) throws(SQLiteError) {
        let select = try connection.statement(
            "SELECT id, folded FROM notes_search_pending ORDER BY id")
        var rows: [(Int64, String)] = []
        while try select.step() { rows.append((select.int64(0), select.text(1))) }
        select.reset()
        guard let last = rows.last?.0 else { return }
        for (id, folded) in rows {
            try insert(id: id, entry: SearchIndexEntry(folded: folded), on: connection)
        }
        try connection.statement(
            "UPDATE notes_search_state SET indexed_through = max(indexed_through, ?)"
        ).bind(.integer(last)).run()
        try connection.execute("DELETE FROM notes_search_pending")
    }

    /// Writes an entry into the FTS5 tables (and the folded copy of a long note).
    private static func insert(
        id: Int64, entry: SearchIndexEntry, on connection: SQLiteConnection
    ) throws(SQLiteError) {
        try connection.statement("INSERT INTO notes_trigrams (rowid, folded) VALUES (?, ?)")
            .bind(.integer(id), .text(entry.folded)).run()
        try connection.statement("INSERT INTO notes_grams (rowid, grams) VALUES (?, ?)")
            .bind(.integer(id), .text(entry.grams)).run()
        if entry.keepsFoldedCopy {
            try connection.statement("INSERT INTO notes_folded (id, folded) VALUES (?, ?)")
                .bind(.integer(id), .text(entry.folded)).run()
        }
    }

    /// Takes a note of `account` (of any account for `nil`) out of the index, before its
    /// row changes or goes: FTS5 needs the text it indexed. Nothing when the account has
    /// no such note or it is not indexed yet.
    static func remove(id: Int64, account: Int64?, on connection: SQLiteConnection)
        throws(SQLiteError)
    {
        let read = try connection.statement(
            """
            SELECT n.content, f.folded, p.id IS NOT NULL FROM notes n
                LEFT JOIN notes_folded f ON f.id = n.id
                LEFT JOIN notes_search_pending p ON p.id = n.id
            WHERE n.id = ?1 AND (?2 IS NULL OR n.account_id = ?2)
                AND (p.id IS NOT NULL OR ?1 <= (SELECT indexed_through FROM notes_search_state))
            """)
        try read.bind(.integer(id), account.map(SQLiteValue.integer) ?? .null)
        guard try read.step() else { return }
        if read.int64(2) != 0 {  // still waiting: not in the FTS5 tables yet
            read.reset()
            try connection.statement("DELETE FROM notes_search_pending WHERE id = ?")
                .bind(.integer(id)).run()
            return
        }
        let copy = read.isNull(1) ? nil : read.text(1)
        let folded = copy ?? TextFolding.fold(read.text(0))
        read.reset()
        try connection.statement(
            "INSERT INTO notes_trigrams (notes_trigrams, rowid, folded) VALUES ('delete', ?, ?)"
        ).bind(.integer(id), .text(folded)).run()
        try connection.statement(
            "INSERT INTO notes_grams (notes_grams, rowid, grams) VALUES ('delete', ?, ?)"
        ).bind(.integer(id), .text(SearchIndexEntry.grams(of: folded))).run()
        if copy != nil {
            try connection.statement("DELETE FROM notes_folded WHERE id = ?")
                .bind(.integer(id)).run()
        }
    }

    /// Takes every note of the account with `email` out of the index, before the account
    /// (and with it its notes) is removed.
    static func removeNotes(ofAccount email: String, on connection: SQLiteConnection)
        throws(SQLiteError)
    {
        var after: Int64 = 0
        while true {
            let select = try connection.statement(
                """
                SELECT n.id FROM accounts a JOIN notes n ON n.account_id = a.id
                WHERE a.email = ? AND n.id > ? ORDER BY n.id LIMIT ?
                """)
            try select.bind(.text(email), .integer(after), .integer(Int64(buildBatch)))
            var ids: [Int64] = []
            while try select.step() { ids.append(select.int64(0)) }
            select.reset()
            guard let last = ids.last else { return }
            for id in ids { try remove(id: id, account: nil, on: connection) }
            after = last
        }
    }

    /// Empties the index, before every note is removed (a restore starts so).
    static func removeAll(on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute(
            """
            INSERT INTO notes_trigrams (notes_trigrams) VALUES ('delete-all');
            INSERT INTO notes_grams (notes_grams) VALUES ('delete-all');
            DELETE FROM notes_folded;
            DELETE FROM notes_search_pending;
            UPDATE notes_search_state SET indexed_through = 0;
            """)
    }

    // MARK: Building

    /// Indexes the notes above the highest id indexed: all of them after the migration
    /// that made the index (or a change of the folding's tables), and those written since
    /// by programs other than the store. Cheap when the index is complete (one lookup).
    /// Works in transactions of ``buildBatch`` notes, telling `progress` after each.
    static func indexMissingNotes(
        on connection: SQLiteConnection, progress: (SearchIndexProgress) -> Void
    ) throws(SQLiteError) {
        // Read first, and write only when something is to be done: a database on a
        // read-only file system still opens (reads work, writes fail cleanly).
        let folding = Int64(bitPattern: TextFolding.fingerprint)
        let state = try connection.statement("SELECT folding FROM notes_search_state")
        _ = try state.step()
        let recorded = state.int64(0)
        connection.finishStatements()
        if recorded != folding {
            try SQLiteMigrations.transaction(on: connection) { () throws(SQLiteError) in
                try removeAll(on: connection)
                try connection.statement("UPDATE notes_search_state SET folding = ?")
                    .bind(.integer(folding)).run()
            }
        }
        let missing = try connection.statement(
            """
            SELECT count(*) FROM notes
            WHERE id > (SELECT indexed_through FROM notes_search_state)
                AND NOT EXISTS (SELECT 1 FROM notes_search_pending p WHERE p.id = notes.id)
            """)
        _ = try missing.step()
        let total = Int(missing.int64(0))
        connection.finishStatements()
        if total == 0 { return }
        var done = 0
        progress(SearchIndexProgress(indexed: done, total: total))
        while done < total {
            let indexed = try SQLiteMigrations.transaction(on: connection) {
                () throws(SQLiteError) -> Int in
                let select = try connection.statement(
                    """
                    SELECT id, content FROM notes
                    WHERE id > (SELECT indexed_through FROM notes_search_state)
                        AND NOT EXISTS (
                            SELECT 1 FROM notes_search_pending p WHERE p.id = notes.id)
                    ORDER BY id LIMIT ?
                    """)
                try select.bind(.integer(Int64(buildBatch)))
                var rows: [(Int64, String)] = []
                while try select.step() { rows.append((select.int64(0), select.text(1))) }
                select.reset()
                for (id, content) in rows {
                    try insert(id: id, entry: SearchIndexEntry(content: content), on: connection)
                }
                if let last = rows.last?.0 {
                    try connection.statement(
                        "UPDATE notes_search_state SET indexed_through = max(indexed_through, ?)"
                    ).bind(.integer(last)).run()
                }
                return rows.count
            }
            if indexed == 0 { break }
            done += indexed
            progress(SearchIndexProgress(indexed: min(done, total), total: total))
        }
        // One segment per index after a build: a query then reads each word's list once.
        try SQLiteMigrations.transaction(on: connection) { () throws(SQLiteError) in
            try connection.execute(
                """
                INSERT INTO notes_trigrams (notes_trigrams) VALUES ('optimize');
                INSERT INTO notes_grams (notes_grams) VALUES ('optimize');
                """)
        }
    }

    // MARK: Reads

    /// The page of the account's notes containing `page.containing`, or `nil` when the
    /// page has no search (no text, or text that folds to nothing).
    static func notes(
        account: Int64, page: NotePage, on connection: SQLiteConnection
    ) throws(SQLiteError) -> [Note]? {
        guard let text = page.containing else { return nil }
        let needle = TextFolding.fold(text)
        if needle.isEmpty { return nil }
        // No note holds U+0000 (the content rules refuse it), and SQLite's text would end there.
        if needle.unicodeScalars.contains("\u{0}") || page.limit <= 0 { return [] }
        var ids = try walk(account: account, page: page, needle: needle, on: connection)
        if ids == nil {
            ids = try indexed(account: account, page: page, needle: needle, on: connection)
        }
        let fetch = try connection.statement(
            "SELECT \(SQLiteNoteStore.noteColumns) FROM notes WHERE id = ?")
        var notes: [Note] = []
        for id in ids ?? [] {
            try fetch.bind(.integer(id))
            if try fetch.step() { notes.append(SQLiteNoteStore.note(from: fetch)) }
            fetch.reset()
        }
        return notes
    }

    /// The page's ids found by testing the newest notes one by one, or `nil` when the walk
    /// stopped at its bounds before it could tell.
    private static func walk(
        account: Int64, page: NotePage, needle: String, on connection: SQLiteConnection
    ) throws(SQLiteError) -> [Int64]? {
        // After a cursor, two seeks: the rest of the cursor's own date, then older dates
        // (see SQLiteNoteStore's pageAfterCursor for why not a row-value bound).
        var walks: [SQLiteStatement] = []
        if let after = page.after {
            walks.append(
                try connection.statement(walkSameDate).bind(
                    .integer(account), .text(needle), .text(after.sortKey), .integer(after.id)))
            walks.append(
                try connection.statement(walkOlder).bind(
                    .integer(account), .text(needle), .text(after.sortKey)))
        } else {
            walks.append(
                try connection.statement(walkAll).bind(.integer(account), .text(needle)))
        }
        var ids: [Int64] = []
        var (notes, characters) = (0, 0)
        for statement in walks {
            while try statement.step() {
                if statement.int64(1) > 0 {
                    ids.append(statement.int64(0))
                    if ids.count == page.limit { return ids }
                }
                notes += 1
                characters += Int(statement.int64(2))
                if notes >= walkNotes || characters >= walkCharacters { return nil }
            }
        }
        return ids
    }

    private static let walkAll = """
        SELECT n.id, coalesce(mynotes_contains(f.folded, ?2), mynotes_matches(n.content, ?2)),
            length(n.content)
        FROM notes n LEFT JOIN notes_folded f ON f.id = n.id
        WHERE n.account_id = ?1
        ORDER BY n.sort_key DESC, n.id DESC
        """
    private static let walkSameDate = """
        SELECT n.id, coalesce(mynotes_contains(f.folded, ?2), mynotes_matches(n.content, ?2)),
            length(n.content)
        FROM notes n LEFT JOIN notes_folded f ON f.id = n.id
        WHERE n.account_id = ?1 AND n.sort_key = ?3 AND n.id < ?4
        ORDER BY n.sort_key DESC, n.id DESC
        """
    private static let walkOlder = """
        SELECT n.id, coalesce(mynotes_contains(f.folded, ?2), mynotes_matches(n.content, ?2)),
            length(n.content)
        FROM notes n LEFT JOIN notes_folded f ON f.id = n.id
        WHERE n.account_id = ?1 AND n.sort_key < ?3
        ORDER BY n.sort_key DESC, n.id DESC
        """

    /// Notes a check that no older note can enter the page reads at most.
    static let checkNotes = 20_000

    /// The page's ids as the index finds them. The index hands over matching notes newest
    /// id first; notes are mostly written in date order, so the page's notes tend to come
    /// first. Once the page could be filled, a check (bounded, on
    /// `notes_by_account_newest`) asks whether any note after the cursor dated later than
    /// the page's last has a smaller id than the last note handed over: when none has, no
    /// note still to come can enter the page, and the stream stops. Checks come after 1, 2,
    /// 4… times the page's size of matches, so a stream of notes out of date order costs at
    /// most a few checks more than reading every match.
    private static func indexed(
        account: Int64, page: NotePage, needle: String, on connection: SQLiteConnection
    ) throws(SQLiteError) -> [Int64] {
        let short = needle.unicodeScalars.count < 3
        let query =
            short
            ? "\"" + SearchIndexEntry.word(of: needle.unicodeScalars) + "\""
            : "\"" + needle.replacing("\"", with: "\"\"") + "\""
        let statement = try connection.statement(short ? byGrams : byTrigrams)
        let cursorKey: SQLiteValue = page.after.map { .text($0.sortKey) } ?? .null
        let cursorID = SQLiteValue.integer(page.after?.id ?? 0)
        try statement.bind(
            .integer(account), cursorKey, cursorID, .text(query), .text(needle))
        // Entries still waiting are few (``pendingNotes``): all of the account's matches
        // among them join the page's candidates first.
        let waiting = try connection.statement(pendingMatches)
        try waiting.bind(.integer(account), cursorKey, cursorID, .text(needle))
        var found: [NotePosition] = []
        while try waiting.step() {
            found.append(NotePosition(sortKey: waiting.text(1), id: waiting.int64(0)))
        }
        waiting.reset()
        var (handed, nextCheck) = (0, page.limit)
        while try statement.step() {
            found.append(NotePosition(sortKey: statement.text(1), id: statement.int64(0)))
            handed += 1
            guard handed == nextCheck else { continue }
            nextCheck *= 2
            found = newestFirst(found, limit: page.limit)
            guard found.count == page.limit, let last = found.last else { continue }
            let check = try connection.statement(notesThatCouldEnter)
            try check.bind(
                .integer(account), cursorKey, cursorID, .text(last.sortKey),
                .integer(Int64(checkNotes)))
            // Oldest first: a note that can enter is dated near the page's last, so a
            // check that fails mostly fails at once.
            let streamed = statement.int64(0)
            var (read, entering) = (0, false)
            while !entering, try check.step() {
                read += 1
                entering = check.int64(0) < streamed
            }
            check.reset()
            if read < checkNotes && !entering { break }
        }
        return newestFirst(found, limit: page.limit).map(\.id)
    }

    private static func newestFirst(_ positions: [NotePosition], limit: Int) -> [NotePosition] {
        Array(
            positions.sorted { ($0.sortKey, $0.id) > ($1.sortKey, $1.id) }.prefix(limit))
    }

    private static let byTrigrams = byIndex("notes_trigrams")
    private static let byGrams = byIndex("notes_grams")

    /// The index's candidates, each tested on its folded text (?5).
    private static func byIndex(_ table: String) -> String {
        """
        SELECT n.id, n.sort_key FROM \(table) s CROSS JOIN notes n ON n.id = s.rowid
            LEFT JOIN notes_folded f ON f.id = n.id
        WHERE \(table) MATCH ?4 AND n.account_id = ?1
            AND (?2 IS NULL OR n.sort_key < ?2 OR (n.sort_key = ?2 AND n.id < ?3))
            AND coalesce(mynotes_contains(f.folded, ?5), mynotes_matches(n.content, ?5))
        ORDER BY s.rowid DESC
        """
    }

    private static let pendingMatches = """
        SELECT n.id, n.sort_key FROM notes_search_pending p CROSS JOIN notes n ON n.id = p.id
        WHERE n.account_id = ?1
            AND (?2 IS NULL OR n.sort_key < ?2 OR (n.sort_key = ?2 AND n.id < ?3))
            AND mynotes_contains(p.folded, ?4)
        """

    /// The ids of the account's notes after the cursor (?2, ?3) dated after ?4, oldest
    /// first, at most ?5.
    private static let notesThatCouldEnter = """
        SELECT id FROM notes
        WHERE account_id = ?1 AND sort_key > ?4 AND sort_key <= coalesce(?2, '~')
            AND (?2 IS NULL OR sort_key < ?2 OR id < ?3)
        ORDER BY sort_key, id
        LIMIT ?5
        """
}

/// How far building the search index has come: `indexed` of `total` notes.
public struct SearchIndexProgress: Sendable, Hashable {
    public let indexed: Int
    public let total: Int

    public init(indexed: Int, total: Int) {
        self.indexed = indexed
        self.total = total
    }
}
