/// The notes' search index (issue 15): substring search without reading every note.
///
/// Three tables, all keyed by the note's id:
/// - `notes_folded`: each note's text folded by ``TextFolding`` (the store's own copy, so
///   that removing a note from the index never needs to fold it again);
/// - `notes_trigrams`: FTS5 with the `trigram` tokenizer over `notes_folded` (external
///   content, case-sensitive since the text is folded already): a query of three or more
///   characters is a phrase of its trigrams, which matches exactly where the folded query
///   is a substring of the folded note;
/// - `notes_grams`: FTS5 without content over each note's distinct one- and two-character
///   pieces, as hexadecimal words (``SearchIndexEntry``): a query of one or two characters
///   (`会议`) is one word.
///
/// The store's write methods keep them in step in the write's own transaction, so a note
/// is found as soon as its write is acknowledged. There are no triggers: the folding is
/// Swift's, and a trigger calling it would break every other writer (the `sqlite3` shell).
/// Notes written by such writers are indexed when the store next opens the database
/// (``indexMissingNotes(on:progress:)``).
///
/// A page of a search first walks the account's newest notes (after the cursor), testing
/// their folded text, for at most ``walkNotes`` notes and ``walkCharacters`` characters: a
/// common word fills its page there, in the order pages need, without touching the index.
/// Only when the walk neither fills the page nor reaches the account's end does the index
/// answer: it finds every matching note, whose few newest the page keeps.
enum SQLiteSearchIndex {
    /// Notes a page's walk tests before it asks the index.
    static let walkNotes = 1_000
    /// Characters of folded text a page's walk reads before it asks the index.
    static let walkCharacters = 2_000_000
    /// Notes indexed per transaction while the index is built.
    static let buildBatch = 2_000

    static let migration = SQLiteMigration(
        name: "notes-search-index",
        sql: """
            CREATE TABLE notes_folded (id INTEGER PRIMARY KEY, folded TEXT NOT NULL);
            CREATE VIRTUAL TABLE notes_trigrams USING fts5(
                folded, content = 'notes_folded', content_rowid = 'id',
                tokenize = 'trigram case_sensitive 1', columnsize = 0);
            CREATE VIRTUAL TABLE notes_grams USING fts5(
                grams, content = '', tokenize = 'ascii', detail = none, columnsize = 0);
            """)

    // MARK: Writes

    /// Indexes a note just added, and hands it back (for the store's write methods).
    static func indexed(_ note: Note, on connection: SQLiteConnection) throws(SQLiteError)
        -> Note
    {
        try add(id: note.id, content: note.content, on: connection)
        return note
    }

    /// Indexes a note just changed (nothing to do when its folded text stays the same),
    /// and hands it back.
    static func reindexed(_ note: Note, on connection: SQLiteConnection) throws(SQLiteError)
        -> Note
    {
        try replace(id: note.id, content: note.content, on: connection)
        return note
    }

    /// Indexes a new note.
    static func add(id: Int64, content: String, on connection: SQLiteConnection)
        throws(SQLiteError)
    {
        try insert(id: id, entry: SearchIndexEntry(content: content), on: connection)
    }

    /// Indexes a note's new content in place of its old.
    static func replace(id: Int64, content: String, on connection: SQLiteConnection)
        throws(SQLiteError)
    {
        let entry = SearchIndexEntry(content: content)
        if try folded(id: id, on: connection) == entry.folded { return }
        try remove(id: id, on: connection)
        try insert(id: id, entry: entry, on: connection)
    }

    /// Takes a note out of the index (nothing when it is not there).
    static func remove(id: Int64, on connection: SQLiteConnection) throws(SQLiteError) {
        guard let folded = try folded(id: id, on: connection) else { return }
        try connection.statement(
            "INSERT INTO notes_trigrams (notes_trigrams, rowid, folded) VALUES ('delete', ?, ?)"
        ).bind(.integer(id), .text(folded)).run()
        try connection.statement(
            "INSERT INTO notes_grams (notes_grams, rowid, grams) VALUES ('delete', ?, ?)"
        ).bind(.integer(id), .text(SearchIndexEntry.grams(of: folded))).run()
        try connection.statement("DELETE FROM notes_folded WHERE id = ?").bind(.integer(id)).run()
    }

    /// Takes every note of the account with `email` out of the index, before the account
    /// (and with it its notes) is removed.
    static func removeNotes(ofAccount email: String, on connection: SQLiteConnection)
        throws(SQLiteError)
    {
        try removeAll(on: connection) { after throws(SQLiteError) in
            let statement = try connection.statement(
                """
                SELECT n.id FROM accounts a JOIN notes n ON n.account_id = a.id
                    JOIN notes_folded f ON f.id = n.id
                WHERE a.email = ? AND n.id > ? ORDER BY n.id LIMIT ?
                """)
            return try statement.bind(.text(email), .integer(after), .integer(Int64(buildBatch)))
        }
    }

    private static func insert(
        id: Int64, entry: SearchIndexEntry, on connection: SQLiteConnection
    ) throws(SQLiteError) {
        try connection.statement("INSERT INTO notes_folded (id, folded) VALUES (?, ?)")
            .bind(.integer(id), .text(entry.folded)).run()
        try connection.statement("INSERT INTO notes_trigrams (rowid, folded) VALUES (?, ?)")
            .bind(.integer(id), .text(entry.folded)).run()
        try connection.statement("INSERT INTO notes_grams (rowid, grams) VALUES (?, ?)")
            .bind(.integer(id), .text(entry.grams)).run()
    }

    private static func folded(id: Int64, on connection: SQLiteConnection) throws(SQLiteError)
        -> String?
    {
        let statement = try connection.statement("SELECT folded FROM notes_folded WHERE id = ?")
        try statement.bind(.integer(id))
        return try statement.step() ? statement.text(0) : nil
    }

    /// Removes, batch by batch, the notes `select` finds: ids in ascending order after the
    /// one it is given, a batch at a time, until it finds none.
    private static func removeAll(
        on connection: SQLiteConnection,
        select: (_ after: Int64) throws(SQLiteError) -> SQLiteStatement
    ) throws(SQLiteError) {
        var after: Int64 = 0
        while true {
            let statement = try select(after)
            var ids: [Int64] = []
            while try statement.step() { ids.append(statement.int64(0)) }
            statement.reset()
            guard let last = ids.last else { return }
            for id in ids { try remove(id: id, on: connection) }
            after = last
        }
    }

    // MARK: Building

    /// Indexes the notes the index lacks and drops entries of notes that are gone: all
    /// of them after the migration that made the index, and those written since by
    /// programs other than the store. Cheap when the index is complete (two counts).
    /// Works in transactions of ``buildBatch`` notes, telling `progress` after each.
    static func indexMissingNotes(
        on connection: SQLiteConnection, progress: (SearchIndexProgress) -> Void
    ) throws(SQLiteError) {
        let counts = try connection.statement(
            "SELECT (SELECT count(*) FROM notes), (SELECT count(*) FROM notes_folded)")
        _ = try counts.step()
        let (notes, indexed) = (counts.int64(0), counts.int64(1))
        connection.finishStatements()
        if notes == indexed { return }
        try SQLiteMigrations.transaction(on: connection) { () throws(SQLiteError) in
            try removeAll(on: connection) { after throws(SQLiteError) in
                let statement = try connection.statement(
                    """
                    SELECT f.id FROM notes_folded f
                    WHERE f.id > ? AND NOT EXISTS (SELECT 1 FROM notes n WHERE n.id = f.id)
                    ORDER BY f.id LIMIT ?
                    """)
                return try statement.bind(.integer(after), .integer(Int64(buildBatch)))
            }
        }
        let missing = try connection.statement(
            """
            SELECT count(*) FROM notes n
            WHERE NOT EXISTS (SELECT 1 FROM notes_folded f WHERE f.id = n.id)
            """)
        _ = try missing.step()
        let total = Int(missing.int64(0))
        connection.finishStatements()
        var (done, after): (Int, Int64) = (0, 0)
        progress(SearchIndexProgress(indexed: done, total: total))
        while done < total {
            let last = try SQLiteMigrations.transaction(on: connection) {
                () throws(SQLiteError) -> Int64? in
                let select = try connection.statement(
                    """
                    SELECT n.id, n.content FROM notes n
                    WHERE n.id > ? AND NOT EXISTS (SELECT 1 FROM notes_folded f WHERE f.id = n.id)
                    ORDER BY n.id LIMIT ?
                    """)
                try select.bind(.integer(after), .integer(Int64(buildBatch)))
                var rows: [(Int64, String)] = []
                while try select.step() { rows.append((select.int64(0), select.text(1))) }
                select.reset()
                for (id, content) in rows { try add(id: id, content: content, on: connection) }
                done += rows.count
                return rows.last?.0
            }
            guard let last else { break }
            after = last
            progress(SearchIndexProgress(indexed: done, total: total))
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
        SELECT n.id, instr(f.folded, ?2), length(f.folded)
        FROM notes n JOIN notes_folded f ON f.id = n.id
        WHERE n.account_id = ?1
        ORDER BY n.sort_key DESC, n.id DESC
        """
    private static let walkSameDate = """
        SELECT n.id, instr(f.folded, ?2), length(f.folded)
        FROM notes n JOIN notes_folded f ON f.id = n.id
        WHERE n.account_id = ?1 AND n.sort_key = ?3 AND n.id < ?4
        ORDER BY n.sort_key DESC, n.id DESC
        """
    private static let walkOlder = """
        SELECT n.id, instr(f.folded, ?2), length(f.folded)
        FROM notes n JOIN notes_folded f ON f.id = n.id
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
        try statement.bind(.integer(account), cursorKey, cursorID, .text(query))
        var found: [NotePosition] = []
        var (handed, nextCheck) = (0, page.limit)
        while try statement.step() {
            found.append(NotePosition(sortKey: statement.text(1), id: statement.int64(0)))
            handed += 1
            guard handed == nextCheck else { continue }
            nextCheck *= 2
            found = newestFirst(found, limit: page.limit)
            guard found.count == page.limit, let last = found.last else { continue }
            let check = try connection.statement(olderNoteCanEnter)
            try check.bind(
                .integer(account), cursorKey, cursorID, .text(last.sortKey),
                .integer(statement.int64(0)), .integer(Int64(checkNotes)))
            _ = try check.step()
            let (read, entering) = (check.int64(0), check.int64(1))
            check.reset()
            if read < checkNotes && entering == 0 { break }
        }
        return newestFirst(found, limit: page.limit).map(\.id)
    }

    private static func newestFirst(_ positions: [NotePosition], limit: Int) -> [NotePosition] {
        Array(
            positions.sorted { ($0.sortKey, $0.id) > ($1.sortKey, $1.id) }.prefix(limit))
    }

    private static let byTrigrams = byIndex("notes_trigrams")
    private static let byGrams = byIndex("notes_grams")

    private static func byIndex(_ table: String) -> String {
        """
        SELECT n.id, n.sort_key FROM \(table) s CROSS JOIN notes n ON n.id = s.rowid
        WHERE \(table) MATCH ?4 AND n.account_id = ?1
            AND (?2 IS NULL OR n.sort_key < ?2 OR (n.sort_key = ?2 AND n.id < ?3))
        ORDER BY s.rowid DESC
        """
    }

    /// How many of the account's notes after the cursor (?2, ?3) and dated after ?4 were
    /// read (at most ?6), and how many of them have an id below ?5.
    private static let olderNoteCanEnter = """
        SELECT count(*), coalesce(sum(id < ?5), 0) FROM (
            SELECT id FROM notes
            WHERE account_id = ?1 AND sort_key > ?4 AND sort_key <= coalesce(?2, '~')
                AND (?2 IS NULL OR sort_key < ?2 OR id < ?3)
            LIMIT ?6)
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
