import MyNotesDomain
import StorageSupport

/// The notes' search index: substring search without reading every note.
///
/// Two FTS5 tables without content (the index alone, no copy of the text) whose row ids
/// are ``SQLiteSearchKey``s, ordered by account and date as pages are, and a folded copy of
/// long notes:
/// - `notes_trigrams`: the `trigram` tokenizer over the note's text folded by
///   ``TextFolding`` (case-sensitive, since the text is folded already): a query of three
///   or four characters is a phrase of its trigrams, which matches exactly where the
///   folded query is a substring of the folded note. With positions: without them
///   (`detail=none`, less than half the size) a query could only ask for notes holding
///   all its trigrams anywhere, and for a piece of common syllables (`a rena`) 97% of
///   those candidates were not matches, each read and tested;
/// - `notes_grams`: each note's distinct one- and two-character pieces, as hexadecimal
///   words (``SearchIndexEntry``), without positions: a query of one or two characters
///   (`会议`) is one word;
/// - `notes_fives`: each note's distinct five-character pieces as hashed words
///   (``SearchIndexEntry/fives(of:)``), without positions: a query of five or more
///   characters asks for notes holding up to ``mostFives`` of its pieces.
///   Its trigrams' phrase would match exactly, but for common syllables across a word
///   boundary (`achar xi`: 50 matches among a million notes) FTS5 walked the positions of
///   trigrams in up to 384,545 notes, 12 – 30 ms each time; its four pieces are in 54
///   notes together, found in 1 – 2 ms;
/// - `notes_search_keys`: each indexed note's key;
/// - `notes_folded`: the folded text of notes of ``SearchIndexEntry/foldedCopyBytes`` or
///   more, so that testing a long note never folds it again.
/// Every candidate is tested on its folded text (`mynotes_contains`), so answers are exactly a
/// scan's.
///
/// **Writes.** An add writes nothing here: notes above `indexed_through` (in
/// `notes_search_state`) are the index's *tail*, which searches test one by one, and the
/// store's writer moves them into the index in batches after their commits
/// (``indexWaiting(on:limit:until:)``, run by ``SQLiteSearchIndexer`` when the store is
/// quiet or the tail is long). A change of an indexed note's content or date takes it out
/// of the FTS5 tables in the write's own transaction (a table without content forgets a
/// row only when handed the very text it indexed, which is gone after the write) and lists
/// it in `notes_search_pending`, which searches test too, until a batch indexes it again.
/// So a note is found as soon as its write is acknowledged. There are no triggers: the
/// folding is Swift's, and a trigger calling it would break every other writer (the
/// `sqlite3` shell). Notes other programs add land in the tail too. When the store opens
/// a database whose index is new (all notes after the migration) or whose tail is longer
/// than ``SQLiteSearchIndexer/priorityLag``, it indexes the tail first, with its progress
/// told (``indexMissingNotes(on:notes:segments:progress:)``); a shorter tail (a store
/// stopped by `kill -9` under a stream of adds) is left to the writer, so the store
/// serves at once. `notes_search_state` also records
/// a fingerprint of the folding's tables: when a new Swift runtime folds differently, the
/// index is rebuilt.
///
/// **Reads.** A page of a search first walks the account's newest notes (after the
/// cursor), testing their folded text, for at most ``walkNotes`` notes and
/// ``walkCharacters`` characters: a common word fills its page there, in the order pages
/// need, without touching the index. Only when the walk neither fills the page nor reaches
/// the account's end does the index answer: the tail's and the pending notes' matches,
/// then the index's, newest key first, until a match's day is older than the page's last
/// note's.
enum SQLiteSearchIndex {
    /// Notes a page's walk tests before it asks the index.
    static let walkNotes = 250
    /// Characters of text a page's walk reads before it asks the index.
    static let walkCharacters = 2_000_000
    /// Notes indexed per transaction while the index is built on opening.
    static let buildBatch = 2_000
    /// The most five-character pieces a query of five or more characters asks for: a
    /// longer query's pieces evenly spaced, first and last included. Each one is one more
    /// list FTS5 reads, and six of a query's pieces leave few notes that are not matches.
    static let mostFives = 6

    // MARK: Writes

    /// One FTS5 table of the index: the column it indexes, what it holds of an entry, and
    /// its statements, made once.
    private struct TextTable: Sendable {
        let words: @Sendable (SearchIndexEntry) -> String
        let insert: String
        /// Takes a row out: a table without content needs the very words it indexed.
        let delete: String
        let name: String

        init(
            _ name: String, column: String, words: @escaping @Sendable (SearchIndexEntry) -> String
        ) {
            self.name = name
            self.words = words
            insert = "INSERT INTO \(name) (rowid, \(column)) VALUES (?, ?)"
            delete = "INSERT INTO \(name) (\(name), rowid, \(column)) VALUES ('delete', ?, ?)"
        }

        /// An FTS5 command over the whole table (`delete-all`, `optimize`), as a statement.
        func command(_ command: String) -> String {
            "INSERT INTO \(name) (\(name)) VALUES ('\(command)');\n"
        }
    }

    /// The FTS5 tables: every write, removal, emptying and merge goes through each of them.
    private static let textTables = [
        TextTable("notes_trigrams", column: "folded") { $0.folded },
        TextTable("notes_grams", column: "grams") { $0.grams },
        TextTable("notes_fives", column: "fives") { $0.fives },
    ]

    /// What one call of ``indexWaiting(on:limit:until:)`` did.
    struct Batch: Equatable {
        /// Notes it indexed.
        var indexed: Int
        /// Whether it indexed every note that waited: no batch needs to follow.
        var isLast: Bool
    }

    /// Indexes up to `limit` notes of the pending list and of the tail (oldest first), in
    /// the caller's transaction, and stops after the note that passes `deadline`: folding
    /// a note and listing its pieces is the batch's work (256 notes of 63 KB take far
    /// longer than 256 of 200 bytes), and a write arriving meanwhile waits for it.
    @discardableResult
    static func indexWaiting(
        on connection: SQLiteConnection, limit: Int,
        until deadline: ContinuousClock.Instant? = nil
    ) throws(SQLiteError) -> Batch {
        var rows: [(id: Int64, account: Int64, sortKey: String, content: String)] = []
        let pending = try connection.statement(
            """
            SELECT n.id, n.account_id, n.sort_key, n.content
            FROM notes_search_pending p JOIN notes n ON n.id = p.id ORDER BY p.id LIMIT ?
            """)
        try pending.bind(.integer(Int64(limit)))
        while try pending.step() {
            rows.append((pending.int64(0), pending.int64(1), pending.text(2), pending.text(3)))
        }
        pending.reset()
        let pendingCount = rows.count
        let tail = try connection.statement(
            """
            SELECT id, account_id, sort_key, content FROM notes
            WHERE id > (SELECT indexed_through FROM notes_search_state) ORDER BY id LIMIT ?
            """)
        try tail.bind(.integer(Int64(max(0, limit - rows.count))))
        while try tail.step() {
            rows.append((tail.int64(0), tail.int64(1), tail.text(2), tail.text(3)))
        }
        tail.reset()
        var indexed = 0
        for row in rows {
            let key = try key(
                account: row.account, sortKey: row.sortKey, id: row.id, on: connection)
            try insert(
                key: key, id: row.id, entry: SearchIndexEntry(content: row.content), on: connection)
            indexed += 1
            if let deadline, ContinuousClock.now >= deadline { break }
        }
        // The rows are the pending ones, then the tail's, each in id order: those indexed
        // are a prefix.
        if indexed > 0, pendingCount > 0 {
            try connection.statement("DELETE FROM notes_search_pending WHERE id <= ?")
                .bind(.integer(rows[min(indexed, pendingCount) - 1].id)).run()
        }
        if indexed > pendingCount {
            try connection.statement(
                "UPDATE notes_search_state SET indexed_through = max(indexed_through, ?)"
            ).bind(.integer(rows[indexed - 1].id)).run()
        }
        return Batch(indexed: indexed, isLast: rows.count < limit && indexed == rows.count)
    }

    /// A free key for the note: the next of its account and day, or its unordered one.
    private static func key(
        account: Int64, sortKey: String, id: Int64, on connection: SQLiteConnection
    ) throws(SQLiteError) -> Int64 {
        guard let first = SQLiteSearchKey.firstOfDay(account: account, sortKey: sortKey) else {
            return SQLiteSearchKey.unordered(id: id)
        }
        let last = first | SQLiteSearchKey.numberMask
        let highest = try connection.statement(
            "SELECT max(key) FROM notes_search_keys WHERE key BETWEEN ? AND ?")
        try highest.bind(.integer(first), .integer(last))
        _ = try highest.step()
        let next = highest.isNull(0) ? first : highest.int64(0) + 1
        highest.reset()
        return next <= last ? next : SQLiteSearchKey.unordered(id: id)
    }

    /// Writes an entry into the FTS5 tables under `key` (and the folded copy of a long note).
    private static func insert(
        key: Int64, id: Int64, entry: SearchIndexEntry, on connection: SQLiteConnection
    ) throws(SQLiteError) {
        try connection.statement("INSERT INTO notes_search_keys (key, id) VALUES (?, ?)")
            .bind(.integer(key), .integer(id)).run()
        for table in textTables {
            try connection.statement(table.insert)
                .bind(.integer(key), .text(table.words(entry))).run()
        }
        if entry.keepsFoldedCopy {
            try connection.statement("INSERT INTO notes_folded (id, folded) VALUES (?, ?)")
                .bind(.integer(id), .text(entry.folded)).run()
        }
    }

    /// After a note was inserted with an id of its own (a restore): one at or below
    /// `indexed_through` is listed as pending, since only the tail above it is indexed
    /// without being listed.
    static func inserted(id: Int64, on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.statement(
            """
            INSERT OR IGNORE INTO notes_search_pending (id)
            SELECT ?1 WHERE ?1 <= (SELECT indexed_through FROM notes_search_state)
            """
        ).bind(.integer(id)).run()
    }

    /// Before a note of `account` changes its content or date, in the write's
    /// transaction: takes it out of the FTS5 tables (FTS5 needs the text it indexed) and
    /// lists it as pending, so that searches test it until a batch indexes it again.
    /// Nothing for a note of the tail, or of no such account.
    static func willChange(id: Int64, account: Int64, on connection: SQLiteConnection)
        throws(SQLiteError)
    {
        guard try forget(id: id, account: account, on: connection) else { return }
        try connection.statement("INSERT OR IGNORE INTO notes_search_pending (id) VALUES (?)")
            .bind(.integer(id)).run()
    }

    /// Takes a note of `account` (of any account for `nil`) out of the index, before its
    /// row goes.
    static func remove(id: Int64, account: Int64?, on connection: SQLiteConnection)
        throws(SQLiteError)
    {
        guard try forget(id: id, account: account, on: connection) else { return }
        try connection.statement("DELETE FROM notes_search_pending WHERE id = ?")
            .bind(.integer(id)).run()
    }

    /// Takes the note out of the FTS5 tables when it is in them; returns whether the note
    /// exists and is indexed or pending (not of the tail).
    private static func forget(id: Int64, account: Int64?, on connection: SQLiteConnection)
        throws(SQLiteError) -> Bool
    {
        let read = try connection.statement(
            """
            SELECT n.content, f.folded, k.key FROM notes n
                LEFT JOIN notes_search_keys k ON k.id = n.id
                LEFT JOIN notes_folded f ON f.id = n.id
            WHERE n.id = ?1 AND (?2 IS NULL OR n.account_id = ?2)
                AND ?1 <= (SELECT indexed_through FROM notes_search_state)
            """)
        try read.bind(.integer(id), account.map(SQLiteValue.integer) ?? .null)
        guard try read.step() else { return false }
        if read.isNull(2) {  // pending already: not in the FTS5 tables
            read.reset()
            return true
        }
        let key = read.int64(2)
        let copy = read.isNull(1) ? nil : read.text(1)
        let entry = SearchIndexEntry(folded: copy ?? TextFolding.fold(read.text(0)))
        read.reset()
        for table in textTables {
            try connection.statement(table.delete)
                .bind(.integer(key), .text(table.words(entry))).run()
        }
        try connection.statement("DELETE FROM notes_search_keys WHERE key = ?")
            .bind(.integer(key)).run()
        if copy != nil {
            try connection.statement("DELETE FROM notes_folded WHERE id = ?")
                .bind(.integer(id)).run()
        }
        return true
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
                WHERE a.email = ? AND n.id > ?
                    AND n.id <= (SELECT indexed_through FROM notes_search_state)
                ORDER BY n.id LIMIT ?
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
            textTables.map { $0.command("delete-all") }.joined()
                + """
                DELETE FROM notes_search_keys;
                DELETE FROM notes_folded;
                DELETE FROM notes_search_pending;
                UPDATE notes_search_state SET indexed_through = 0;
                """)
    }

    /// Notes of the tail and pending ones: what the index still has to take in.
    static func waiting(on connection: SQLiteConnection) throws(SQLiteError) -> Int {
        let missing = try connection.statement(
            """
            SELECT (SELECT count(*) FROM notes
                    WHERE id > (SELECT indexed_through FROM notes_search_state))
                + (SELECT count(*) FROM notes_search_pending)
            """)
        _ = try missing.step()
        defer { missing.reset() }
        return Int(missing.int64(0))
    }

    // MARK: Building

    /// What a build does with the FTS5 segments it wrote.
    enum Segments {
        /// Merged into one per index (`optimize`): a query then reads each word's list
        /// once. For the store's build on opening, a one-time migration.
        case merged
        /// Left to FTS5's own merging: for a program's bulk insert, which may come again.
        case asWritten
    }

    /// Which waiting notes a build takes in.
    enum WaitingNotes {
        /// Every one.
        case all
        /// None while at most this many wait: a store that stopped before its writer's
        /// batches took them (a `kill -9` under a stream of adds) opens at once, and its
        /// writer indexes them while it serves; searches test them meanwhile. More than
        /// that (a program's bulk insert) would make every search slow: indexed now.
        case noneUpTo(Int)
    }

    /// Indexes the waiting notes `notes` says (all of them after the migration that made
    /// the index or a change of the folding's tables, and those written since by programs
    /// other than the store or left by a store that stopped before its batches took them).
    /// Cheap when the index is complete (one lookup). Works in transactions of
    /// ``buildBatch`` notes, telling `progress` after each.
    static func indexMissingNotes(
        on connection: SQLiteConnection, notes: WaitingNotes = .all,
        segments: Segments = .merged, progress: (SearchIndexProgress) -> Void
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
        let total = try waiting(on: connection)
        connection.finishStatements()
        if total == 0 { return }
        if recorded == folding, case .noneUpTo(let bound) = notes, total <= bound { return }
        var done = 0
        progress(SearchIndexProgress(indexed: done, total: total))
        while done < total {
            let indexed = try SQLiteMigrations.transaction(on: connection) {
                () throws(SQLiteError) -> Int in
                try indexWaiting(on: connection, limit: buildBatch).indexed
            }
            if indexed == 0 { break }
            done += indexed
            progress(SearchIndexProgress(indexed: min(done, total), total: total))
        }
        guard segments == .merged else { return }
        try SQLiteMigrations.transaction(on: connection) { () throws(SQLiteError) in
            try connection.execute(textTables.map { $0.command("optimize") }.joined())
        }
    }

    // MARK: Reads

    /// The page of the account's notes containing `page.containing`, or `nil` when the
    /// page has no search (no text, or text that folds to nothing).
    static func notes(
        account: Int64, page: NotePage, on connection: SQLiteConnection,
        indexer: SQLiteSearchIndexer? = nil
    ) throws(SQLiteError) -> [Note]? {
        guard let text = page.containing else { return nil }
        let needle = TextFolding.fold(text)
        if needle.isEmpty { return nil }
        // No note holds U+0000 (the content rules refuse it), and SQLite's text would end there.
        if needle.unicodeScalars.contains("\u{0}") || page.limit <= 0 { return [] }
        var ids = try walk(account: account, page: page, needle: needle, on: connection)
        if ids == nil {
            ids = try indexed(account: account, page: page, needle: needle, on: connection)
            indexer?.searched()  // it tested the waiting notes
        }
        let fetch = try connection.statement(
            "SELECT \(SQLiteNoteStore.noteColumns) FROM notes WHERE id = ?")
        var notes: [Note] = []
        for id in ids ?? [] {
            try fetch.bind(.integer(id))
            if try fetch.step() { notes.append(try SQLiteNoteStore.note(from: fetch)) }
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

    /// The page's ids as the index finds them: first every match among the notes the
    /// index has yet to take in (the tail and the pending ones), and the account's
    /// matches among unordered keys; then the index's matches in the account's range of
    /// keys, newest day first. A day older than the page's last note's cannot hold a note
    /// of the page, so the stream stops at the first match of such a day, once the page is
    /// full.
    private static func indexed(
        account: Int64, page: NotePage, needle: String, on connection: SQLiteConnection
    ) throws(SQLiteError) -> [Int64] {
        let (table, query) = lookup(needle)
        let cursorKey: SQLiteValue = page.after.map { .text($0.sortKey) } ?? .null
        let cursorID = SQLiteValue.integer(page.after?.id ?? 0)
        var found: [NotePosition] = []
        let waiting = try connection.statement(waitingMatches)
        try waiting.bind(.integer(account), cursorKey, cursorID, .text(needle))
        while try waiting.step() {
            found.append(NotePosition(sortKey: waiting.text(1), id: waiting.int64(0)))
        }
        waiting.reset()
        let statement = try connection.statement(table)
        let unordered = SQLiteSearchKey.unorderedFirst...SQLiteSearchKey.unorderedLast
        try statement.bind(
            .integer(account), cursorKey, cursorID, .text(query), .text(needle),
            .integer(unordered.lowerBound), .integer(unordered.upperBound))
        while try statement.step() {
            found.append(NotePosition(sortKey: statement.text(1), id: statement.int64(0)))
        }
        statement.reset()
        guard let keys = SQLiteSearchKey.range(account: account, before: page.after) else {
            return newestFirst(found, limit: page.limit).map(\.id)
        }
        try statement.bind(
            .integer(account), cursorKey, cursorID, .text(query), .text(needle),
            .integer(keys.lowerBound), .integer(keys.upperBound))
        var day: Int64 = -1
        while try statement.step() {
            let key = statement.int64(2)
            let keyDay = SQLiteSearchKey.day(ofKey: key)
            if keyDay != day {
                day = keyDay
                found = newestFirst(found, limit: page.limit)
                if found.count == page.limit, let last = found.last,
                    let lastDay = SQLiteSearchKey.day(of: last.sortKey), keyDay < lastDay
                {
                    break
                }
            }
            found.append(NotePosition(sortKey: statement.text(1), id: statement.int64(0)))
        }
        statement.reset()
        return newestFirst(found, limit: page.limit).map(\.id)
    }

    private static func newestFirst(_ positions: [NotePosition], limit: Int) -> [NotePosition] {
        Array(
            positions.sorted { ($0.sortKey, $0.id) > ($1.sortKey, $1.id) }.prefix(limit))
    }

    /// The statement (``byIndex(_:)``) and the FTS5 query that find a needle's candidates:
    /// its one- or two-character word, the phrase of its three or four characters'
    /// trigrams, or its five-character pieces (``mostFives``), every one required.
    private static func lookup(_ needle: String) -> (statement: String, query: String) {
        let scalars = Array(needle.unicodeScalars)
        switch scalars.count {
        case ..<3:
            return (byGrams, "\"" + SearchIndexEntry.word(of: scalars) + "\"")
        case ..<SearchIndexEntry.fiveLength:
            return (byTrigrams, "\"" + needle.replacing("\"", with: "\"\"") + "\"")
        default:
            let hashes = SearchIndexEntry.fiveHashes(of: scalars)
            let last = hashes.count - 1
            let spaced =
                hashes.count <= mostFives
                ? hashes : (0..<mostFives).map { hashes[$0 * last / (mostFives - 1)] }
            var picked: [UInt32] = []
            for hash in spaced where !picked.contains(hash) { picked.append(hash) }
            let words = picked.map { "\"" + SearchIndexEntry.word(ofFive: $0) + "\"" }
            return (byFives, words.joined(separator: " "))
        }
    }

    private static let byTrigrams = byIndex("notes_trigrams")
    private static let byGrams = byIndex("notes_grams")
    private static let byFives = byIndex("notes_fives")

    /// The index's candidates with keys in ?6…?7, newest key first, each tested on its
    /// folded text (?5).
    private static func byIndex(_ table: String) -> String {
        """
        SELECT n.id, n.sort_key, s.rowid FROM \(table) s
            CROSS JOIN notes_search_keys k ON k.key = s.rowid
            CROSS JOIN notes n ON n.id = k.id
            LEFT JOIN notes_folded f ON f.id = n.id
        WHERE \(table) MATCH ?4 AND s.rowid BETWEEN ?6 AND ?7 AND n.account_id = ?1
            AND (?2 IS NULL OR n.sort_key < ?2 OR (n.sort_key = ?2 AND n.id < ?3))
            AND coalesce(mynotes_contains(f.folded, ?5), mynotes_matches(n.content, ?5))
        ORDER BY s.rowid DESC
        """
    }

    /// The account's matches among the notes the index has yet to take in: the tail
    /// (above `indexed_through`: a range of row ids, which the `+` keeps SQLite from
    /// trading for all of the account's notes by `notes_by_account_newest`) and the
    /// pending ones.
    private static let waitingMatches = """
        SELECT n.id, n.sort_key FROM notes n
        WHERE n.id > (SELECT indexed_through FROM notes_search_state) AND +n.account_id = ?1
            AND (?2 IS NULL OR n.sort_key < ?2 OR (n.sort_key = ?2 AND n.id < ?3))
            AND mynotes_matches(n.content, ?4)
        UNION ALL
        SELECT n.id, n.sort_key FROM notes_search_pending p CROSS JOIN notes n ON n.id = p.id
        WHERE n.account_id = ?1
            AND (?2 IS NULL OR n.sort_key < ?2 OR (n.sort_key = ?2 AND n.id < ?3))
            AND mynotes_matches(n.content, ?4)
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
