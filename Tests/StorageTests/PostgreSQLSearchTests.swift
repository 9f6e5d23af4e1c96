import Foundation
import Locking
import MyNotesDomain
import MyNotesProtocol
import MyNotesTesting
import Testing

@testable import PostgreSQLStore

/// On PostgreSQL, search answers through the piece indexes (or the walk, or both)
/// what a scan of every note would; a migration over existing notes tells its progress;
/// a server without pg_trgm, or a user who may not create it, is
/// told what to do; the planner uses the indexes meant for each statement.
@Suite(.postgreSQLInstalled, .onTestThreads)
struct PostgreSQLSearchTests {
    let cluster: PostgreSQLCluster

    init() throws {
        cluster = try #require(try PostgreSQLCluster.shared())
    }

    /// A seeded generator (xorshift64*), so that a failing property fails the same way
    /// every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
    }

    /// Pieces notes and queries are made of: Latin letters in both cases, letters whose
    /// folds differ in length (`ß`/`SS`, `ﬁ`), Greek's final sigma, accents, Chinese, emoji,
    /// LIKE's metacharacters and quotes.
    static let pieces: [String] = [
        "a", "A", "b", "e", "é", "É", "s", "S", "ß", "SS", "ss", "ﬁ", "FI", "σ", "Σ", "ς", "会",
        "议", "记", "录", "牛", "奶", "🙂", "%", "_", "\\", "'", "\"", " ", "%_", "a%b", "\\_",
        "meeting", "Meeting", "STRASSE", "straße", "会议", "x", "y", "z",
    ]

    static func text(_ generator: inout Generator, pieces count: Int) -> String {
        (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    /// The notes of `all` holding `query` once both are folded, compared byte for byte
    /// (as `strpos` does), newest first.
    static func scan(_ all: [Note], for query: String) -> [Note] {
        scan(all.map { ($0, Array(TextFolding.fold($0.content).utf8)) }, for: query)
    }

    /// ``scan(_:for:)`` over notes whose folded text is already known.
    static func scan(_ all: [(note: Note, folded: [UInt8])], for query: String) -> [Note] {
        let needle = Array(TextFolding.fold(query).utf8)
        return all.filter { holds($0.folded, needle) }.map(\.note).sorted {
            ($0.position.sortKey, $0.id) > ($1.position.sortKey, $1.id)
        }
    }

    /// Whether the note's folded text holds `folded`'s bytes.
    static func holds(_ note: Note, _ folded: String) -> Bool {
        holds(Array(TextFolding.fold(note.content).utf8), Array(folded.utf8))
    }

    static func holds(_ text: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard text.count >= needle.count else { return false }
        return (0...(text.count - needle.count)).contains { start in
            text[start..<start + needle.count].elementsEqual(needle)
        }
    }

    /// Random notes, some planted with a rare word, a middling one or a common one, one in
    /// eight long enough to be indexed as two or three chunks, dated over four years (so
    /// over some forty months), and random queries, some longer than a chunk's overlap: every
    /// page of the store's answer, first and keyset pages, is the scan's; so is every page
    /// searched with a sample of 100 notes instead of 1,000 (an account of 2,600 notes then
    /// behaves as a large one does). The queries reach each way of answering (the sample
    /// alone, the walk after it, the three-character pieces after it, the short pieces after
    /// it, the four-character pieces read by month, and the five-character ones), counted by
    /// the store's rule.
    @Test(arguments: [UInt64(20_261_201), 15])
    func searchAnswersAsAScanDoes(seed: UInt64) async throws {
        var generator = Generator(state: seed)
        let schema = try cluster.createSchema()
        let store = try PostgreSQLNoteStore(conninfo: schema)
        defer { store.close() }
        let connection = try PostgreSQLConnection(conninfo: schema)
        let account = try await store.createAccount(
            email: "s@x", tokenHash: nil, passwordHash: nil
        ).id
        var contents: [String] = []
        for index in 0..<2_600 {
            var content = Self.text(&generator, pieces: Int.random(in: 1...12, using: &generator))
            if index % 8 == 1 {
                content += Self.text(
                    &generator, pieces: Int.random(in: 300...900, using: &generator))
            }
            if index % 400 == 7 { content += " zebrafish" }  // rare: the index's
            if index % 400 == 11 { content += " 霰雹" }  // rare and short: the piece index's
            if index % 400 == 13 { content += " qxz" }  // rare, three letters: the triples' index
            if index % 400 == 17 { content += " vwyx" }  // rare, four letters: the month's pieces
            if index % 10 == 3 { content += " Kumquat" }  // middling: the walk's, or the sample's
            if index % 2 == 0 { content += " commonword" }  // common: the sample's
            contents.append(content)
        }
        // Dates out of the order of IDs, some equal, so pages follow (sort key, id).
        let drafts = contents.map { content in
            NoteDraft(
                date: NoteDate(
                    year: Int.random(in: 2024...2027, using: &generator),
                    month: Int.random(in: 1...12, using: &generator),
                    day: Int.random(in: 1...28, using: &generator),
                    time: (Int.random(in: 0...3, using: &generator), 0, 0))!,
                content: content)
        }
        var notes: [Note] = []
        for batch in stride(from: 0, to: drafts.count, by: 100) {
            notes += try await withThrowingTaskGroup(of: Note.self) { group in
                for draft in drafts[batch..<min(batch + 100, drafts.count)] {
                    group.addTask {
                        try await store.addNote(draft, account: account, quota: .unlimited)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        var queries = [
            "zebrafish", "ZEBRA", "霰雹", "霰", "QXZ", "kumquat", "KUMQ", "VWYX", "commonword",
            "MONWO", "会议", "e",
        ]
        for round in 0..<60 {
            queries.append(Self.text(&generator, pieces: Int.random(in: 1...3, using: &generator)))
            // Pieces of notes, of a long one one time in six and then longer than a chunk's
            // overlap one time in two: found across the chunks' edges.
            let long = round % 6 == 0
            let note = contents.filter { !long || $0.unicodeScalars.count > 1_200 }
                .randomElement(using: &generator)!.unicodeScalars
            let start = Int.random(in: 0..<note.count, using: &generator)
            let length =
                long && round % 12 == 0
                ? Int.random(in: 65...300, using: &generator)
                : Int.random(in: 1...8, using: &generator)
            var piece = String(String.UnicodeScalarView(note.dropFirst(start).prefix(length)))
            if Bool.random(using: &generator) { piece = piece.uppercased() }
            queries.append(piece)
        }
        var routes: [String: Int] = [:]
        let limit = 40
        let folded = notes.map { ($0, Array(TextFolding.fold($0.content).utf8)) }
        let ordered = Self.scan(folded, for: "")
        let bytes = Int64(notes.reduce(0) { $0 + $1.content.utf8.count })
        for query in queries {
            let expected = Self.scan(folded, for: query)
            let matches = Set(expected.map(\.id))
            var after: NotePosition?
            for page in 0..<4 {
                let found = try await store.notes(
                    account: account, page: NotePage(after: after, limit: limit, containing: query))
                let small = try PostgreSQLNoteStore.search(
                    account: account, after: after, needle: TextFolding.fold(query), limit: limit,
                    sample: 100, on: connection)
                let wanted = Array(expected.dropFirst(page * limit).prefix(limit)).map(\.id)
                #expect(
                    found.map(\.id) == wanted, "query \(query.debugDescription), page \(page + 1)")
                #expect(
                    small.map(\.id) == wanted,
                    "query \(query.debugDescription), page \(page + 1), sample of 100")
                for size in [PostgreSQLNoteStore.searchSample, 100] {
                    let route = Self.route(
                        ordered, matches: matches, after: after, query: query, limit: limit,
                        sample: size, bytes: bytes)
                    routes[route, default: 0] += 1
                }
                guard found.count == limit, let last = found.last else { break }
                after = last.position
            }
        }
        for route in [
            "sample", "walk", "triple index", "piece index", "month index", "five index",
        ] {
            #expect(routes[route, default: 0] > 0, "no query went by \(route): \(routes)")
        }
    }

    /// An account of long notes (60 of about 20 KB) is sampled by its text: 16 notes, not
    /// 1,000 (``PostgreSQLNoteStore/searchSampleBytes``), and every page, across the
    /// sample's edge and after it, is still the scan's: for a query in most notes, one in
    /// three of them, one in none, and a Chinese pair.
    @Test func anAccountOfLongNotesIsSampledByItsText() async throws {
        var generator = Generator(state: 7)
        let schema = try cluster.createSchema()
        let store = try PostgreSQLNoteStore(conninfo: schema)
        defer { store.close() }
        let account = try await store.createAccount(
            email: "l@x", tokenHash: nil, passwordHash: nil
        ).id
        var notes: [Note] = []
        for index in 0..<60 {
            var content = Self.text(&generator, pieces: 8_000)
            if index % 20 == 5 { content += " zebrafish" }
            let draft = NoteDraft(
                date: NoteDate(year: 2026, month: 1, day: index % 28 + 1, time: (10, 0, 0))!,
                content: content)
            notes.append(try await store.addNote(draft, account: account, quota: .unlimited))
        }
        let connection = try PostgreSQLConnection(conninfo: schema)
        let size = try connection.query(
            """
            SELECT \(PostgreSQLNoteStore.sampleSize(most: "1000", notes: "note_count", bytes: "note_bytes"))
            FROM accounts WHERE id = $1
            """, .integer(account)
        ).int64(0, 0)
        #expect(size == Int64(PostgreSQLNoteStore.searchSampleFloor))
        for query in ["MEETING", "zebrafish", "zebrafisj", "会议"] {
            var found: [Int64] = []
            var after: NotePosition?
            while true {
                let page = try await store.notes(
                    account: account, page: NotePage(after: after, limit: 7, containing: query))
                found += page.map(\.id)
                guard page.count == 7, let last = page.last else { break }
                after = last.position
            }
            #expect(found == Self.scan(notes, for: query).map(\.id), "query \(query)")
        }
    }

    /// A step after the baseline over a database holding notes (30,000, written straight
    /// into the tables as a bulk import would, ASCII so that their fold is their lower
    /// case, and indexed as the servers' indexers would) tells its start, PostgreSQL's progress
    /// building its index, and its end; the planner reads the piece indexes for their
    /// statements and the account's index for a page of the listing.
    @Test func aStepOverExistingNotesTellsItsProgressAndSearchesReadTheIndexes() async throws {
        let database = try cluster.createDatabase()
        try PostgreSQLNoteStore(conninfo: database).close()
        _ = try cluster.psql(
            """
            INSERT INTO accounts (email, email_key, created_at) VALUES ('m@x', 'm@x', 0);
            ALTER TABLE notes DISABLE TRIGGER notes_written;
            INSERT INTO notes (account_id, date, sort_key, content, folded_content,
                created_at, updated_at)
            SELECT a.id, d, d, 'Note ' || n || ' about Meeting ' || md5(n::text),
                'note ' || n || ' about meeting ' || md5(n::text), 0, 0
            FROM accounts a, generate_series(1, 30000) AS n,
                LATERAL (SELECT to_char(timestamp '2020-01-01' + n * interval '1 minute',
                    'YYYY-MM-DD HH24:MI:SS') AS d) dates;
            ALTER TABLE notes ENABLE TRIGGER notes_written;
            INSERT INTO note_changes
                (account_id, note_id, seq, created_seq, version, deleted, changed_at)
            SELECT account_id, id, row_number() OVER w, row_number() OVER w, version, false, 0
            FROM notes WINDOW w AS (PARTITION BY account_id ORDER BY id);
            UPDATE accounts SET note_count = 30000, change_seq = 30000;
            """, on: database)
        let connection = try PostgreSQLConnection(conninfo: database)
        let account = try connection.query("SELECT id FROM accounts").int64(0, 0)
        _ = try PostgreSQLSearchIndexer.index(account: account, batch: 30_000, on: connection)
        _ = try cluster.psql("ANALYZE", on: database)
        let step = PostgreSQLMigrations.Step(
            name: "test-notes-pieces",
            sql: "CREATE INDEX test_notes_pieces ON notes"
                + " USING gin ((mynotes_text_pieces(folded_content) COLLATE \"C\"))")
        let told = Lock<[PostgreSQLMigrationProgress]>([])
        let unknown = try PostgreSQLMigrations.apply(
            on: connection, conninfo: database, steps: PostgreSQLMigrations.all + [step],
            interval: .milliseconds(10)
        ) { progress in told.withLock { $0.append(progress) } }
        #expect(unknown.isEmpty)
        let events = told.withLock { $0 }
        for step in [step.name] {
            let own = events.filter { $0.step == step }
            #expect(own.first == .started(step: step), "\(events)")
            guard case .finished = own.last else {
                Issue.record("no end told for \(step): \(events)")
                continue
            }
            let building = own.compactMap { event -> (Int, Int)? in
                guard case .building(_, _, let done, let total) = event else { return nil }
                return (done, total)
            }
            #expect(!building.isEmpty, "no progress told for \(step): \(events)")
            #expect(building.allSatisfy { $0.0 <= $0.1 })
        }
        #expect(
            try cluster.psql("SELECT count(*) FROM schema_migrations", on: database)
                .trimmingCharacters(in: .whitespacesAndNewlines)
                == String(PostgreSQLMigrations.all.count + 1))

        // The chunks hold every note (each short enough for one chunk), as of the
        // account's last change; notes holds no search index of the baseline's.
        #expect(
            try cluster.psql(
                """
                SELECT count(*) = 30000 AND (SELECT indexed_seq FROM search_chunks_progress)
                    = (SELECT change_seq FROM accounts) FROM search_chunks
                """, on: database
            ).trimmingCharacters(in: .whitespacesAndNewlines) == "t")
        #expect(
            try cluster.psql(
                "SELECT count(*) FROM pg_indexes WHERE indexname LIKE 'notes_folded%'",
                on: database
            ).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        // ANALYZE leaves the indexes' expressions alone (each would be computed for every
        // sampled entry).
        #expect(
            try cluster.psql(
                """
                SELECT string_agg(attstattarget::text, ',') FROM pg_attribute
                WHERE attrelid IN ('search_entries_account_pieces'::regclass,
                    'search_entries_trigrams'::regclass, 'search_chunks_pieces'::regclass,
                    'search_chunks_triples'::regclass, 'search_chunks_fives'::regclass)
                """, on: database
            ).trimmingCharacters(in: .whitespacesAndNewlines) == "0,0,0,0,0")
        // pg_trgm's index over the chunks is not among them: it served no query.
        #expect(
            try cluster.psql(
                "SELECT count(*) FROM pg_class WHERE relname = 'search_chunks_trigrams'",
                on: database
            ).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        let cursor: [PostgreSQLValue] = [.text("9999"), .integer(0), .integer(50)]
        let pair: [PostgreSQLValue] = [.integer(account), .texts(["4 "]), .text("")]
        let triple: [PostgreSQLValue] = [.integer(account), .texts(["4 a"]), .text("")]
        let four: [PostgreSQLValue] = [.integer(account), .texts(["te 1"]), .text("")]
        let fives: [PostgreSQLValue] = [
            .integer(account), .texts(["ote 1", "te 12"]), .text("ote 12"),
        ]
        let plans: [(String, [PostgreSQLValue], String)] = [
            (PostgreSQLNoteStore.pageByYear, pair + cursor, "search_chunks_pieces"),
            (PostgreSQLNoteStore.pageOfTriples, triple + cursor, "search_chunks_triples"),
            (PostgreSQLNoteStore.pageByMonth, four + cursor, "search_chunks_pieces"),
            (PostgreSQLNoteStore.pageOfFives, fives + cursor, "search_chunks_fives"),
        ]
        for (sql, parameters, index) in plans {
            let plan = try connection.pipeline([
                .init(sql: "BEGIN", parameters: []),
                .init(sql: PostgreSQLNoteStore.bucketPlans, parameters: []),
                .init(sql: "EXPLAIN " + sql, parameters: parameters),
                .init(sql: "COMMIT", parameters: []),
            ])[2]
            let text = (0..<plan.count).map { plan.text($0, 0) }.joined(separator: "\n")
            #expect(text.contains(index), "\(text)")
        }
        let listing = try connection.query(
            "EXPLAIN " + PostgreSQLNoteStore.pageFromNewest, .integer(account), .null,
            .integer(50))
        let listingText = (0..<listing.count).map { listing.text($0, 0) }.joined(separator: "\n")
        #expect(listingText.contains("notes_by_account_newest"), "\(listingText)")

        // The test's own step goes, so that the store does not take the database for a
        // newer server's.
        _ = try cluster.psql(
            """
            DROP INDEX test_notes_pieces;
            DELETE FROM schema_migrations WHERE name = '\(step.name)';
            """, on: database)
        let store = try PostgreSQLNoteStore(conninfo: database)
        defer { store.close() }
        let found = try await store.notes(
            account: account, page: NotePage(limit: 50, containing: "NOTE 1234 "))
        #expect(found.map(\.content).map { $0.prefix(10) } == ["Note 1234 "])
        let short = try await store.notes(
            account: account, page: NotePage(limit: 50, containing: "9 A"))
        #expect(short.count == 50)
        #expect(short.allSatisfy { $0.content.contains("9 a") })
    }

    /// The pool's connections have planned the search's statements before a search comes:
    /// the five statements of pages from the index, each with its generic plan, from
    /// the store's start, and on a connection the pool opens later.
    @Test func theSearchIsPlannedBeforeItsFirstRequest() async throws {
        let store = try PostgreSQLNoteStore(conninfo: try cluster.createSchema())
        defer { store.close() }
        let planned = { @Sendable (connection: PostgreSQLConnection) throws(PostgreSQLError) in
            try connection.query(
                """
                SELECT count(*) FROM pg_prepared_statements
                WHERE statement LIKE 'WITH RECURSIVE buckets%' AND generic_plans > 0
                """
            ).int64(0, 0)
        }
        let pages: Int64 = 5
        #expect(try store.pool.withConnection(retry: .never, planned) == pages)
        // Two at once: the second is a connection the pool opens now.
        let (first, second) = try store.pool.withConnection(retry: .never) {
            first throws(PostgreSQLError) in
            (try planned(first), Result { try store.pool.withConnection(retry: .never, planned) })
        }
        #expect(first == pages)
        #expect(try second.get() == pages)
        #expect(store.pool.openConnections == 2)
    }

    /// Long notes are compressed with lz4, which PostgreSQL decompresses in a third of
    /// pglz's time.
    @Test func longNotesAreCompressedWithLZ4() async throws {
        let database = try cluster.createDatabase()
        let store = try PostgreSQLNoteStore(conninfo: database)
        defer { store.close() }
        let long = String(repeating: "a long note about the meeting ", count: 2_000)
        let account = try await store.createAccount(
            email: "z@x", tokenHash: nil, passwordHash: nil)
        _ = try await store.addNote(
            NoteDraft(date: "2026-01-02", content: long), account: account.id,
            quota: .unlimited)
        let described = try cluster.psql(
            """
            SELECT string_agg(pg_column_compression(content) || ','
                || pg_column_compression(folded_content) || ',' || (content = '\(long)')
                || ',' || version, ';' ORDER BY id)
            FROM notes
            """, on: database
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(described == "lz4,lz4,true,1")
    }

    /// A user who may not create pg_trgm (no CREATE on the database) is told what to do,
    /// with PostgreSQL's own report.
    @Test func aUserWhoMayNotCreateTheExtensionIsToldWhatToDo() throws {
        let database = try cluster.createDatabase()
        let role = "mynotes_limited_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try cluster.psql(
            "CREATE ROLE \(role) LOGIN; GRANT CREATE ON SCHEMA public TO \(role)", on: database)
        defer { _ = try? cluster.psql("DROP OWNED BY \(role); DROP ROLE \(role)", on: database) }
        let limited = database.replacingOccurrences(of: "postgres@", with: "\(role)@")
        let error = #expect(throws: StoreError.self) {
            _ = try PostgreSQLNoteStore(conninfo: limited)
        }
        guard case .cannotConnect(_, let cause as PostgreSQLError) = error else {
            Issue.record("not a failure to use the database: \(String(describing: error))")
            return
        }
        #expect(cause.sqlState == "42501")
        #expect(cause.message.contains("run CREATE EXTENSION pg_trgm in this database"))
        #expect(cause.message.contains("permission denied"))
    }

    /// A server without the extension's files (PostgreSQL 15 says it cannot open its
    /// control file) names the package to install; other failures pass unchanged.
    @Test func aServerWithoutTheExtensionNamesThePackage() throws {
        let database = try cluster.createDatabase()
        let connection = try PostgreSQLConnection(conninfo: database)
        var missing: PostgreSQLError?
        do {
            try connection.execute("CREATE EXTENSION IF NOT EXISTS mynotes_no_such_extension")
        } catch {
            missing = error
        }
        let error = try #require(missing)
        let step = try #require(PostgreSQLMigrations.all.last { $0.extensionNeeded != nil })
        let explained = PostgreSQLMigrations.explained(error, in: step)
        #expect(explained.sqlState == error.sqlState)
        #expect(explained.message.contains("lacks the pg_trgm extension"))
        #expect(explained.message.contains("postgresql-contrib"))
        #expect(explained.message.contains(error.message))
        let other = PostgreSQLError(sqlState: "42P07", message: "exists", sql: nil)
        #expect(PostgreSQLMigrations.explained(other, in: step) == other)
    }

    /// Which way the store answers a page, by its rule (PostgreSQLNoteStore+Search):
    /// `ordered` is every note of the account in page order, `matches` the query's, `bytes`
    /// the account's content.
    static func route(
        _ ordered: [Note], matches: Set<Int64>, after: NotePosition?, query: String, limit: Int,
        sample size: Int, bytes: Int64
    ) -> String {
        let next = ordered.filter { note in
            guard let after else { return true }
            return (note.position.sortKey, note.id) < (after.sortKey, after.id)
        }
        let sample = next.prefix(size)
        let matched = sample.filter { matches.contains($0.id) }.count
        guard matched < limit, next.count >= size else { return "sample" }
        let lookup = PostgreSQLSearchLookup(TextFolding.fold(query))
        let route = PostgreSQLNoteStore.SearchRoute(
            matched: matched, of: size, needed: limit - matched, notes: Int64(ordered.count),
            bytes: bytes, bucket: lookup.bucket)
        switch (route, lookup.index, lookup.bucket) {
        case (.walk, _, _): return "walk"
        case (.index, .triples, _): return "triple index"
        case (.index, .pieces, .month): return "month index"
        case (.index, .pieces, .year): return "piece index"
        case (.index, .fives, _): return "five index"
        }
    }
}
