import Foundation
import MyNotesDomain
import MyNotesProtocol
import Telemetry
import Testing

@testable import SQLiteStore

/// The search index answers as a plain scan of the folded notes would: for
/// random notes and queries, Latin and CJK, with folding cases and FTS5's syntax
/// characters, on both of its paths (the walk of the newest notes and the index), and
/// stays in step with every kind of write.
@Suite struct SQLiteSearchIndexTests {
    /// A deterministic generator (SplitMix64): a failure reproduces from its seed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces = [
        "Milk", "MILK", "milk", "straße", "STRASSE", "Strasse", "Café", "CAFÉ", "cafe", "σοφία",
        "ΣΟΦΊΑ", "Ärger", "ﬁle", "ＭＩＬＫ", "会议", "会议记录", "记录", "买牛奶", "牛奶", "日本語",
        "カタカナ", "한국어", "🎉", "👩‍💻", "100%", "a_b", "50%_off", #"back\slash"#, #"say "hi""#,
        "it's", "e\u{301}", "OR", "NEAR(", "*", "^", "-", ":", "x", "的", "de",
    ]
    static let separators = ["", " ", ", ", "\n", "\t"]

    static func note(_ random: inout SeededGenerator) -> String {
        let count = Int.random(in: 1...8, using: &random)
        var text = ""
        for index in 0..<count {
            if index > 0 { text += separators.randomElement(using: &random)! }
            text += pieces.randomElement(using: &random)!
        }
        return text
    }

    /// A piece of a note (some of its scalars, then perhaps re-cased), or pieces of the
    /// vocabulary that may never occur together.
    static func query(_ random: inout SeededGenerator, notes: [String]) -> String {
        let query: String
        if Bool.random(using: &random) {
            let scalars = Array(notes.randomElement(using: &random)!.unicodeScalars)
            let length = Int.random(in: 1...min(12, scalars.count), using: &random)
            let start = Int.random(in: 0...(scalars.count - length), using: &random)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[start..<(start + length)])
            query = String(view)
        } else {
            query = (0..<Int.random(in: 1...2, using: &random))
                .map { _ in pieces.randomElement(using: &random)! }.joined(separator: " ")
        }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return query.uppercased()
        case 1: return query.lowercased()
        default: return query
        }
    }

    /// What a scan answers: the notes whose folded UTF-8 holds the folded query's, newest
    /// first.
    static func scan(_ notes: [Note], for query: String) -> [Int64] {
        let needle = Array(TextFolding.fold(query).utf8)
        return
            notes
            .filter { contains(Array(TextFolding.fold($0.content).utf8), needle) }
            .sorted {
                ($0.position.sortKey, $0.position.id) > ($1.position.sortKey, $1.position.id)
            }
            .map(\.id)
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Every page of a search, `limit` notes at a time.
    static func search(
        _ store: SQLiteNoteStore, account: Int64, for query: String, limit: Int
    ) async throws -> [Int64] {
        var found: [Note] = []
        while true {
            let page = try await store.notes(
                account: account,
                page: NotePage(after: found.last?.position, limit: limit, containing: query))
            found += page
            if page.count < limit { return found.map(\.id) }
        }
    }

    static func addAll(
        _ contents: [(date: NoteDate, content: String)], account: Int64, to store: SQLiteNoteStore
    ) async throws -> [Note] {
        try await withThrowingTaskGroup(of: Note.self) { group in
            for (date, content) in contents {
                group.addTask {
                    try await store.addNote(
                        NoteDraft(date: date, content: content), account: account,
                        quota: .unlimited)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// 300 notes over nine days of 2020, `first` on the oldest day and the others "filler":
    /// more than a page's walk tests, so that a search for `first` reaches the index.
    static func addFillers(
        first: String, account: Int64, to store: SQLiteNoteStore
    ) async throws {
        _ = try await addAll(
            (0..<300).map { (date: "2020-01-0\($0 % 9 + 1)", content: $0 == 0 ? first : "filler") },
            account: account, to: store)
    }

    /// 1,400 notes, more than a page's walk tests, so that rare queries reach the index
    /// and common ones fill their pages in the walk; pages of 7 and of 200, over two
    /// accounts whose notes interleave. Searched first while half of the notes are indexed,
    /// a tenth of those changed since (content or date: pending) or removed, and the other
    /// half wait in the tail; then once every note is indexed.
    @Test(arguments: [UInt64(20_261_201), 7])
    func searchAnswersAsAScanDoes(seed: UInt64) async throws {
        var random = SeededGenerator(state: seed)
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        try await database.withStore { store in
            let mine = try await store.createAccount(
                email: "a@x", tokenHash: nil, passwordHash: nil)
            let other = try await store.createAccount(
                email: "b@x", tokenHash: nil, passwordHash: nil)
            // Few dates and times, so that many notes share one and pages split inside it,
            // over several days (the index's keys order days).
            let dates: [NoteDate] = [
                "2026-11-29", "2026-11-29 08:00:00", "2026-11-30", "2025-01-01 12:00:00",
                "2026-12-31 23:59:59", "2024-02-29",
            ]
            let drafts = (0..<1_400).map { _ in
                (date: dates.randomElement(using: &random)!, content: Self.note(&random))
            }
            var notes = try await Self.addAll(
                Array(drafts.prefix(700)), account: mine.id, to: store)
            _ = try await Self.addAll(Array(drafts.prefix(300)), account: other.id, to: store)
            try await store.catchUpSearchIndex()
            notes += try await Self.addAll(Array(drafts.suffix(700)), account: mine.id, to: store)
            for index in stride(from: 0, to: 700, by: 10) {
                let change =
                    index % 20 == 0
                    ? NoteChange(content: Self.note(&random))
                    : NoteChange(date: dates.randomElement(using: &random)!)
                if case .applied(let changed) = try await store.updateNote(
                    id: notes[index].id, account: mine.id, change: change, precondition: .none,
                    quota: .unlimited)
                {
                    notes[index] = changed
                }
            }
            for index in stride(from: 5, to: 700, by: 35) {
                _ = try await store.removeNote(
                    id: notes[index].id, account: mine.id, precondition: .none)
            }
            let removed = Set(stride(from: 5, to: 700, by: 35).map { notes[$0].id })
            notes.removeAll { removed.contains($0.id) }
            let contents = notes.map(\.content)
            var queries = (0..<60).map { _ in Self.query(&random, notes: contents) }
            queries += [
                "\"", "\"\"", "a\" OR \"b", "milk*", "NEAR(milk", "会", "议", "的", "%", "_", "\\",
                "'", "ss", "SS", "É", "é", "e\u{301}", "👩", "🎉", "ﬁ", "fi", "no such text here",
            ]
            for round in ["half indexed", "all indexed"] {
                if round == "all indexed" { try await store.catchUpSearchIndex() }
                for query in queries {
                    let expected = Self.scan(notes, for: query)
                    for limit in [7, 200] {
                        let found = try await Self.search(
                            store, account: mine.id, for: query, limit: limit)
                        #expect(
                            found == expected,
                            "query \(query.debugDescription), pages of \(limit), \(round)")
                    }
                }
            }
        }
    }

    /// Each write is found (or no longer found) at once, whether its note still waits for
    /// the index or was indexed after every write; 300 older notes make the searches go
    /// past the walk of the newest notes, to the index.
    @Test(arguments: [false, true])
    func everyWriteKeepsTheIndexInStep(indexedAfterEachWrite: Bool) async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        try await database.withAccount { store, account in
            _ = try await Self.addAll(
                Array(repeating: (date: "2020-01-01", content: "filler"), count: 300),
                account: account.id, to: store)
            func wrote() async throws {
                if indexedAfterEachWrite { try await store.catchUpSearchIndex() }
            }
            try await wrote()
            let note = try await store.addNote(
                NoteDraft(date: "2026-11-29", content: "周一会议 Straße"), account: account.id,
                quota: .unlimited)
            try await wrote()
            func found(_ query: String) async throws -> [Int64] {
                try await store.notes(
                    account: account.id, page: NotePage(limit: 10, containing: query)
                ).map(\.id)
            }
            #expect(try await found("会议") == [note.id])
            #expect(try await found("STRASSE") == [note.id])
            _ = try await store.updateNote(
                id: note.id, account: account.id, change: NoteChange(content: "Budget 预算"),
                precondition: .none, quota: .unlimited)
            try await wrote()
            #expect(try await found("会议") == [])
            #expect(try await found("预算") == [note.id])
            #expect(try await found("budget") == [note.id])
            _ = try await store.updateNote(
                id: note.id, account: account.id, change: NoteChange(date: "2019-12-01"),
                precondition: .none, quota: .unlimited)
            try await wrote()
            #expect(try await found("budget") == [note.id])
            #expect(try await found("预") == [note.id])
            _ = try await store.removeNote(id: note.id, account: account.id, precondition: .none)
            try await wrote()
            #expect(try await found("budget") == [])
            _ = try await store.addNote(
                NoteDraft(date: "2026-11-29", content: "kept"), account: account.id,
                quota: .unlimited)
            try await wrote()
            #expect(try await store.removeAccount(email: "a@x"))
        }
        for table in ["notes_folded", "notes_search_keys", "notes_search_pending"] {
            #expect(try database.integer("SELECT count(*) FROM \(table)") == 0, "\(table)")
        }
        #expect(
            try database.integer(
                "SELECT count(*) FROM notes_trigrams WHERE notes_trigrams MATCH 'kept'")
                == 0)
    }

    /// Notes added wait for the index only until the store is quiet: the writer then moves
    /// them in, in batches of its own, which `/metrics` counts.
    @Test(.timeLimit(.minutes(5)))
    func aQuietStoreIndexesTheWaitingNotes() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        try await database.withAccount { store, account in
            _ = try await Self.addAll(
                (0..<600).map {
                    (date: "2026-11-\($0 % 18 + 10)", content: "note \($0)")
                },
                account: account.id, to: store)
            await store.searchIndexer.untilCaughtUp()
            #expect(try database.integer("SELECT count(*) FROM notes_search_keys") == 600)
            let figures = store.figures()
            #expect(figures.searchIndexWaiting == 0)
            #expect(figures.searchIndexBatchSize.sum == 600)
            // At most 256 notes a batch.
            #expect(figures.searchIndexBatchSize.count >= 3)
            let found = try await store.notes(
                account: account.id, page: NotePage(limit: 2, containing: "NOTE 599"))
            #expect(found.map(\.content) == ["note 599"])
        }
    }

    /// A batch past its deadline commits what it did: with the deadline passed at once,
    /// each batch indexes one note, the pending ones first, then the tail's, and says it
    /// is the last only when no note is left waiting; every note is indexed once.
    @Test func aBatchStopsAtItsDeadlineAndTheNextGoesOn() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let (account, ids) = try await database.withAccount { store, account in
            let notes = try await Self.addAll(
                (0..<10).map { (date: "2026-12-0\($0 % 9 + 1)", content: "kiwi\($0)x") },
                account: account.id, to: store)
            try await store.catchUpSearchIndex()
            return (account.id, notes.map(\.id).sorted())
        }
        let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
        for id in ids.prefix(3) {
            try SQLiteSearchIndex.willChange(id: id, account: account, on: connection)
        }
        for id in ids.suffix(3) {
            try SQLiteSearchIndex.remove(id: id, account: account, on: connection)
        }
        try connection.execute("UPDATE notes_search_state SET indexed_through = \(ids[6])")
        let indexedThrough = "SELECT indexed_through FROM notes_search_state"
        #expect(try database.integer("SELECT count(*) FROM notes_search_pending") == 3)
        #expect(try database.integer("SELECT count(*) FROM notes_search_keys") == 4)

        var batches: [SQLiteSearchIndex.Batch] = []
        var left: [Int64] = []
        var through: [Int64] = []
        repeat {
            batches.append(
                try SQLiteSearchIndex.indexWaiting(on: connection, limit: 256, until: .now))
            left.append(try database.integer("SELECT count(*) FROM notes_search_pending"))
            through.append(try database.integer(indexedThrough))
        } while !(batches.last?.isLast ?? true) && batches.count < 20
        connection.finishStatements()

        #expect(batches.map(\.indexed) == Array(repeating: 1, count: 6))
        #expect(batches.map(\.isLast) == Array(repeating: false, count: 5) + [true])
        #expect(left == [2, 1, 0, 0, 0, 0])
        #expect(through == [ids[6], ids[6], ids[6], ids[7], ids[8], ids[9]])
        #expect(try database.integer("SELECT count(*) FROM notes_search_keys") == 10)
        let found = "SELECT count(*) FROM notes_trigrams WHERE notes_trigrams MATCH"
        for note in 0..<10 {
            #expect(try database.integer("\(found) '\"kiwi\(note)x\"'") == 1, "kiwi\(note)x")
        }
    }

    /// A note whose date another program wrote in a form of its own takes an unordered key
    /// (SQLiteSearchKey): it is still found, in its place among the others.
    @Test func aNoteOfAnUnorderedKeyIsFound() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let account = try await database.withAccount { store, account in
            try await Self.addFillers(first: "filler zebra", account: account.id, to: store)
            return account.id
        }
        try database.execute(
            """
            INSERT INTO notes (account_id, date, sort_key, content, created_at, updated_at)
            VALUES (\(account), '2020-01-05', '2020/01/05', 'odd zebra', 0, 0);
            """)
        try await database.withStore { store in
            // Past the walk of the newest notes ('2020/…' sorts after '2020-…'), to the index.
            let found = try await store.notes(
                account: account, page: NotePage(limit: 3, containing: "ZEBRA"))
            #expect(found.map(\.content) == ["odd zebra", "filler zebra"])
        }
    }

    /// Notes written straight into the file (the `sqlite3` shell, or a store stopped by
    /// `kill -9` before its writer's batches took them) do not hold up the store's opening:
    /// they are found at once, as the index's tail, and the writer indexes them while the
    /// store serves.
    @Test(.timeLimit(.minutes(5)))
    func notesWaitingOnOpeningAreFoundAtOnceAndIndexedWhileTheStoreServes() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let account = try await database.withAccount { _, account in account.id }
        try database.execute(
            """
            INSERT INTO notes (account_id, date, sort_key, content, created_at, updated_at)
            VALUES (\(account), '2026-11-29', '2026-11-29 00:00:00', '季度会议 QUARTERLY', 0, 0),
                (\(account), '2026-11-30', '2026-11-30 00:00:00', 'other', 0, 0);
            """)
        let progress = ProgressLog()
        let store = try SQLiteNoteStore(path: database.path, indexing: { progress.append($0) })
        defer { store.close() }
        // The progress, not the table: the writer may index the tail any moment after opening.
        #expect(progress.entries.isEmpty, "opening built nothing")
        func found(_ text: String) async throws -> [String] {
            try await store.notes(account: account, page: NotePage(limit: 10, containing: text))
                .map(\.content)
        }
        #expect(try await found("quarterly") == ["季度会议 QUARTERLY"])
        #expect(try await found("会议") == ["季度会议 QUARTERLY"])
        await store.searchIndexer.untilCaughtUp()
        #expect(try database.integer("SELECT count(*) FROM notes_search_keys") == 2)
        #expect(try await found("quarterly") == ["季度会议 QUARTERLY"])
        #expect(try await found("会议") == ["季度会议 QUARTERLY"])
    }

    /// A database whose index was built by a folding with other tables (a new Swift
    /// runtime's) is indexed again when the store opens it: removing a note from the index
    /// needs the very text indexed, so it is never folded by other tables than its own.
    @Test func anotherFoldingRebuildsTheIndex() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let (account, note) = try await database.withAccount { store, account in
            let note = try await store.addNote(
                NoteDraft(date: "2026-11-29", content: "Straße 会议"), account: account.id,
                quota: .unlimited)
            return (account.id, note.id)
        }
        try database.execute("UPDATE notes_search_state SET folding = 1")
        let progress = ProgressLog()
        let store = try SQLiteNoteStore(path: database.path, indexing: { progress.append($0) })
        defer { store.close() }
        #expect(progress.entries.last == SearchIndexProgress(indexed: 1, total: 1))
        _ = try await store.updateNote(
            id: note, account: account, change: NoteChange(content: "budget"),
            precondition: .none, quota: .unlimited)
        let found = try await store.notes(
            account: account, page: NotePage(limit: 10, containing: "STRASSE"))
        #expect(found.isEmpty)
        let budget = try await store.notes(
            account: account, page: NotePage(limit: 10, containing: "Budget"))
        #expect(budget.map(\.id) == [note])
    }

    final class ProgressLog: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [SearchIndexProgress] = []

        func append(_ entry: SearchIndexProgress) { lock.withLock { stored.append(entry) } }
        var entries: [SearchIndexProgress] { lock.withLock { stored } }
    }
}
