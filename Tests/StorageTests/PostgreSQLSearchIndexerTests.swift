import BoundedExecution
import Foundation
import MyNotesDomain
import MyNotesTesting
import Synchronization
import Testing

@testable import PostgreSQLStore
@testable import StorageSupport

/// Search on PostgreSQL, the search chunks: a search answers as a scan does whatever the
/// indexer has read of the account's changes (nothing, part, all; notes changed, shortened
/// and removed since), and the indexer brings the chunks up to date by itself.
@Suite(.postgreSQLInstalled, .onTestThreads)
struct PostgreSQLSearchIndexerTests {
    let cluster: PostgreSQLCluster

    init() throws {
        cluster = try #require(try PostgreSQLCluster.shared())
    }

    /// Rare queries, which the sample leaves to an index: each lookup (the four-character
    /// pieces by month, three characters by month, one or two by year) meets chunks and
    /// the tail together.
    static let queries = ["zebrafish", "QXZ", "霰", "霰雹", "ZEBRA", "a b"]

    /// Notes written straight into the table (the change feed's trigger on, so that they
    /// are changes), with the store's indexer stopped: the indexer's batches are the test's.
    @Test func searchAnswersAsAScanWhateverTheIndexerHasRead() async throws {
        let (schema, accounts) = try await schema(withAccounts: "i@x")
        let account = accounts[0]
        let connection = try PostgreSQLConnection(conninfo: schema)
        var generator = PostgreSQLSearchTests.Generator(state: 42)
        try connection.transaction { () throws(PostgreSQLError) in
            for index in 0..<600 {
                var content = PostgreSQLSearchTests.text(&generator, pieces: 6)
                // Long enough for two chunks or three, the word in the last.
                if index % 5 == 0 {
                    content += PostgreSQLSearchTests.text(&generator, pieces: 900)
                }
                if index % 37 == 3 { content += " Zebrafish" }
                if index % 41 == 5 { content += " qxz 霰雹" }
                if index % 43 == 7 { content += " a b" }
                try insert(content, day: index % 28 + 1, account: account, on: connection)
            }
        }
        try expectScan(account: account, on: connection, "nothing indexed")
        _ = try PostgreSQLSearchIndexer.index(account: account, batch: 250, on: connection)
        try expectScan(account: account, on: connection, "250 changes indexed")
        try indexAll(account: account, on: connection)
        try expectScan(account: account, on: connection, "all indexed")

        // Changed since: some lose their word, some gain it, some shrink to one chunk,
        // some go.
        _ = try connection.query(
            """
            UPDATE notes SET content = content || ' zebrafish', folded_content =
                folded_content || ' zebrafish', version = version + 1
            WHERE account_id = $1 AND id % 7 = 0
            """, .integer(account))
        _ = try connection.query(
            """
            UPDATE notes SET content = 'plain', folded_content = 'plain', version = version + 1
            WHERE account_id = $1 AND id % 11 = 0
            """, .integer(account))
        _ = try connection.query(
            "DELETE FROM notes WHERE account_id = $1 AND id % 13 = 0", .integer(account))
        try expectScan(account: account, on: connection, "changed since")
        try indexAll(account: account, on: connection)
        try expectScan(account: account, on: connection, "changes indexed")
        // The chunks are the notes' own, each at its note's version, none left over.
        let stale = try connection.query(
            """
            SELECT count(*) FROM (
                SELECT n.account_id, n.id, t.chunk, n.version, t.text FROM notes n
                CROSS JOIN LATERAL mynotes_text_chunks(n.folded_content) t) wanted
            FULL JOIN search_chunks c ON c.account_id = wanted.account_id
                AND c.note_id = wanted.id AND c.chunk = wanted.chunk
            WHERE c.version IS DISTINCT FROM wanted.version
                OR c.folded_content IS DISTINCT FROM wanted.text
            """)
        #expect(stale.int64(0, 0) == 0)
        let chunked = try connection.query(
            "SELECT count(DISTINCT note_id) FROM search_chunks WHERE chunk > 0")
        #expect(chunked.int64(0, 0) > 50)
    }

    /// The indexer, told of an account's writes, indexes them once the account is quiet,
    /// and counts what its batches took in (`mynotes_search_index_batch_size`).
    @Test func theIndexerCatchesUpByItself() async throws {
        let (schema, accounts) = try await schema(withAccounts: "c@x")
        let account = accounts[0]
        let connection = try PostgreSQLConnection(conninfo: schema)
        for index in 0..<50 {
            try insert("note \(index) zebrafish", day: 1, account: account, on: connection)
        }
        let statistics = StoreStatistics()
        let indexer = PostgreSQLSearchIndexer(conninfo: schema, statistics: statistics)
        indexer.start()
        defer { indexer.stop() }
        await indexer.untilIdle()
        indexer.changed(.account(account))
        await indexer.untilIdle()
        let progress = try connection.query(
            """
            SELECT p.indexed_seq, a.change_seq, (SELECT count(*) FROM search_chunks)
            FROM accounts a JOIN search_chunks_progress p ON p.account_id = a.id
            """)
        #expect(progress.count == 1)
        #expect(progress.int64(0, 0) == progress.int64(0, 1))
        #expect(progress.int64(0, 2) == 50)
        #expect(indexer.waitingAccounts == 0)
        #expect(statistics.searchIndexBatchSize.snapshot().sum == 50)
        #expect(statistics.searchIndexBatchSize.snapshot().count >= 1)
        // Its batches merged their entries into the indexes' trees: no page is left
        // pending, for every lookup to read.
        let pending = try connection.query(PostgreSQLSearchIndexer.mergePendingEntries)
        #expect(Int(pending.columnCount) == PostgreSQLSearchLookup.Index.allCases.count)
        for index in 0..<pending.columnCount { #expect(pending.int64(0, index) == 0) }
    }

    /// An operator drops the search indexes to build them again: the indexer goes on
    /// writing the chunks (with one index dropped it merges the others' pending entries),
    /// and a search still answers as a scan, and a new connection's rehearsal of the search
    /// reads no chunk. Naming a dropped index failed the indexer's connection every second,
    /// and no chunk was written until the indexes were back.
    @Test func theIndexerGoesOnWhileTheIndexesAreDropped() async throws {
        let (schema, accounts) = try await schema(withAccounts: "d@x")
        let account = accounts[0]
        let connection = try PostgreSQLConnection(conninfo: schema)
        _ = try connection.query("DROP INDEX search_chunks_triples")
        #expect(try PostgreSQLSearchIndexer.pendingEntries(on: connection) == .merged)
        let merged = try connection.query(PostgreSQLSearchIndexer.mergePendingEntries)
        #expect(merged.int64(0, 0) == 0)
        #expect(merged.isNull(0, 1))
        #expect(merged.int64(0, 2) == 0)
        _ = try connection.query("DROP INDEX search_chunks_pieces, search_chunks_fives")
        for index in 0..<20 {
            try insert("note \(index) zebrafish", day: 1, account: account, on: connection)
        }
        let indexer = PostgreSQLSearchIndexer(conninfo: schema, statistics: StoreStatistics())
        indexer.start()
        defer { indexer.stop() }
        indexer.changed(.account(account))
        try await untilIndexed(account, on: connection)
        let chunks = try connection.query("SELECT count(*) FROM search_chunks")
        #expect(chunks.int64(0, 0) == 20)
        try expectScan(account: account, on: connection, "without the indexes")
        // The statements a new connection plans its searches with read no chunk, which
        // without the indexes would be a scan of them all for each page statement.
        let pages = PostgreSQLNoteStore.searchRehearsal.filter {
            $0.sql.contains("FROM search_chunks c")
        }
        #expect(pages.count == 5)
        let plans = try connection.pipeline(
            [
                .init(sql: "BEGIN", parameters: []),
                .init(sql: PostgreSQLNoteStore.bucketPlans, parameters: []),
            ]
                + pages.map {
                    .init(sql: "EXPLAIN (ANALYZE, TIMING OFF) " + $0.sql, parameters: $0.parameters)
                } + [.init(sql: "ROLLBACK", parameters: [])])
        for plan in plans[2..<plans.count - 1] {
            let lines = (0..<plan.count).map { plan.text($0, 0) }
            let reads = lines.filter { $0.contains("on search_chunks") }
            #expect(
                !reads.isEmpty && reads.allSatisfy { $0.contains("never executed") }, "\(lines)")
        }
    }

    /// A new account's catch-up of ``PostgreSQLSearchIndexer/analyzeLag`` changes, after
    /// as many rows of `notes` changed since its last ANALYZE, first analyzes the account
    /// columns: the planner's statistics had no row of the account, and its lookups read
    /// all the account's entries for every change. Another such catch-up within the minute
    /// (``PostgreSQLSearchIndexer/analyzeIntervalNanoseconds``, ``IntervalGate``), with the
    /// statistics stale again, runs none.
    @Test func aLongCatchUpAnalyzesTheAccountColumnsFirstAtMostOnceAMinute() async throws {
        let (schema, accounts) = try await schema(withAccounts: "a@x", "b@x", "c@x")
        let connection = try PostgreSQLConnection(conninfo: schema)
        // No autovacuum's ANALYZE between the inserts and the indexer's look at them.
        _ = try connection.query("ALTER TABLE notes SET (autovacuum_enabled = false)")
        _ = try connection.query("ANALYZE notes")
        func analyses() throws -> Int64 {
            try connection.query(
                "SELECT analyze_count FROM pg_stat_user_tables WHERE relid = 'notes'::regclass"
            ).int64(0, 0)
        }
        func fill(_ account: Int64) throws {
            _ = try connection.query(
                """
                INSERT INTO notes (account_id, date, sort_key, content, folded_content,
                    created_at, updated_at)
                SELECT $1, '2026-03-01 09:00:00', '2026-03-01 09:00:00', 'note ' || i,
                    'note ' || i, 0, 0
                FROM generate_series(1, $2) i
                """, .integer(account), .integer(PostgreSQLSearchIndexer.analyzeLag))
            // The insert's count of changed rows reaches the shared statistics now, not
            // after the backend's next interval.
            _ = try connection.query("SELECT pg_stat_force_next_flush()")
        }
        let before = try analyses()
        try fill(accounts[0])
        let indexer = PostgreSQLSearchIndexer(conninfo: schema, statistics: StoreStatistics())
        indexer.start()
        defer { indexer.stop() }
        let first = ContinuousClock.now
        indexer.changed(.account(accounts[0]))
        try await untilIndexed(accounts[0], on: connection)
        #expect(try analyses() == before + 1)

        // The second account's rows in the statistics (without them its catch-up is the
        // slow one, 60 s and more under ASan), then as many rows of a third account, never
        // indexed: stale statistics once more.
        try fill(accounts[1])
        _ = try connection.query(PostgreSQLSearchIndexer.analyzeAccounts)
        let analyzed = try analyses()
        try fill(accounts[2])
        indexer.changed(.account(accounts[1]))
        try await untilIndexed(accounts[1], on: connection)
        // Both catch-ups take seconds; only a machine stalled for most of a minute would
        // let the second one through the gate.
        if ContinuousClock.now - first < .seconds(50) {
            #expect(try analyses() == analyzed)
        }
    }

    /// Emptying the store (`migrate --force`, ``PostgreSQLNoteStore/removeAll()``) while an
    /// indexer's batch holds its account's progress row: the batch goes on to the chunks
    /// and commits, then the store empties. With the chunks locked first, the batch and the
    /// TRUNCATE each waited on the other until PostgreSQL failed one of them as a deadlock.
    @Test func emptyingTheStoreWaitsForABatchWithoutADeadlock() async throws {
        let (schema, accounts) = try await schema(withAccounts: "d@x")
        let account = accounts[0]
        let batch = try PostgreSQLConnection(conninfo: schema)
        try batch.execute("BEGIN")
        // The batch's first steps (PostgreSQLSearchIndexer.index): its progress row, locked.
        _ = try batch.query(
            "INSERT INTO search_chunks_progress (account_id, indexed_seq) VALUES ($1, 0)",
            .integer(account))
        _ = try batch.query(
            "SELECT indexed_seq FROM search_chunks_progress WHERE account_id = $1 FOR UPDATE",
            .integer(account))
        let emptying = try Conflicting(schema: schema, waitingOn: batch, in: "TRUNCATE") {
            try await $0.removeAll()
            return "emptied"
        }
        // The batch's next step reads and writes the chunks.
        _ = try batch.query(
            "SELECT count(*) FROM search_chunks WHERE account_id = $1", .integer(account))
        try batch.execute("COMMIT")
        try emptying.expect("emptied")
        #expect(try emptying.watcher.query("SELECT count(*) FROM accounts").int64(0, 0) == 0)
    }

    /// Emptying the store while a lookup that names `accounts` before the progress (the
    /// indexer's first statement as it starts) holds `accounts`: each waits on the other,
    /// PostgreSQL fails the TRUNCATE, and the store runs it again once the lookup is done.
    /// Most likely what failed `migrate --force` in CI (40P01 with the progress first): its
    /// store's indexer starts with such a lookup.
    @Test func emptyingTheStoreRunsAgainAfterADeadlock() async throws {
        let (schema, _) = try await schema(withAccounts: "e@x")
        let lookup = try PostgreSQLConnection(conninfo: schema)
        try lookup.execute("BEGIN")
        _ = try lookup.query("SELECT count(*) FROM accounts")
        let emptying = try Conflicting(schema: schema, waitingOn: lookup, in: "TRUNCATE") {
            try await $0.removeAll()
            return "emptied"
        }
        // The lookup's next table, which the TRUNCATE holds.
        _ = try lookup.query("SELECT count(*) FROM search_chunks_progress")
        try lookup.execute("COMMIT")
        try emptying.expect("emptied")
        #expect(try emptying.watcher.query("SELECT count(*) FROM accounts").int64(0, 0) == 0)
    }

    /// Removing an account (`accounts remove`) while its indexer's batch holds the
    /// account's progress row: the DELETE holds the account's row and waits for the
    /// progress row, which goes with the account, and the batch's next chunk refers to the
    /// account, so it waits for the DELETE. PostgreSQL fails the DELETE (40P01, which the
    /// operator saw), and the store runs it again once the batch has committed.
    @Test func removingAnAccountRunsAgainAfterADeadlockWithItsBatch() async throws {
        let (schema, accounts) = try await schema(withAccounts: "r@x")
        let account = accounts[0]
        let batch = try PostgreSQLConnection(conninfo: schema)
        // The progress row an earlier batch made: made in this one, its reference to the
        // account would hold the account's row before the DELETE could.
        _ = try batch.query(
            "INSERT INTO search_chunks_progress (account_id, indexed_seq) VALUES ($1, 0)",
            .integer(account))
        try batch.execute("BEGIN")
        _ = try batch.query(
            "SELECT indexed_seq FROM search_chunks_progress WHERE account_id = $1 FOR UPDATE",
            .integer(account))
        let removing = try Conflicting(schema: schema, waitingOn: batch, in: "DELETE") {
            try await $0.removeAccount(email: "r@x") ? "removed" : "no such account"
        }
        // The batch's chunk, whose reference to the account waits for the DELETE.
        _ = try batch.query(
            """
            INSERT INTO search_chunks (account_id, note_id, chunk, sort_key, version, folded_content)
            VALUES ($1, 1, 0, '2026-01-01 00:00:00', 1, 'x')
            """, .integer(account))
        try batch.execute("COMMIT")
        try removing.expect("removed")
        let left = try removing.watcher.query(
            """
            SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM search_chunks)
                + (SELECT count(*) FROM search_chunks_progress)
            """)
        #expect(left.int64(0, 0) == 0)
    }

    /// A store's operation on a task of its own, started once its statement waits on
    /// `blocker`'s locks. The store's connections look for a deadlock after 5 s of a wait,
    /// the blocker's after a minute, so that PostgreSQL fails the store's statement,
    /// provided the blocker starts waiting within those 5 s (it looks once per wait). The
    /// task runs on a thread of its own: in a parallel run, a task on the cooperative pool
    /// did not start within a minute.
    private final class Conflicting: Sendable {
        let watcher: PostgreSQLConnection
        let store: PostgreSQLNoteStore
        let thread = BoundedExecutor(
            name: "conflicting", limits: ExecutorLimits(threads: 1, queueLimit: 1))
        let outcome = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)

        init(
            schema: String, waitingOn blocker: PostgreSQLConnection, in statement: String,
            _ operation: @escaping @Sendable (PostgreSQLNoteStore) async throws -> String
        ) throws {
            try blocker.execute("SET deadlock_timeout = '1min'")
            store = try PostgreSQLNoteStore(conninfo: schema + "%20-cdeadlock_timeout%3D5s")
            watcher = try PostgreSQLConnection(conninfo: schema)
            let blockerProcess = try blocker.query("SELECT pg_backend_pid()").int64(0, 0)
            Task(executorPreference: thread) { [self] in
                do {
                    let text = try await operation(store)
                    outcome.withLock { $0 = text }
                } catch {
                    outcome.withLock { $0 = "\(error)" }
                }
                done.signal()
            }
            try Poll.until(
                "the \(statement) waiting on the other connection", timeout: .seconds(60)
            ) {
                try watcher.query(
                    """
                    SELECT count(*) FROM pg_stat_activity
                    WHERE $1::int = ANY (pg_blocking_pids(pid)) AND query LIKE $2
                    """, .integer(blockerProcess), .text(statement + "%")
                ).int64(0, 0) == 1
            }
        }

        /// Waits for the operation and expects its outcome.
        func expect(_ expected: String) throws {
            defer {
                store.close()
                thread.close()
            }
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(outcome.withLock { $0 } == expected)
        }
    }

    /// Merging the pending entries takes the indexes' owner (`gin_clean_pending_list`): a
    /// user who does not own them leaves the entries to PostgreSQL, where merging would
    /// fail every batch.
    @Test func aUserWhoDoesNotOwnTheIndexesLeavesTheirPendingEntries() throws {
        let database = try cluster.createDatabase()
        try PostgreSQLNoteStore(conninfo: database).close()
        let role = "mynotes_indexer_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try cluster.psql("CREATE ROLE \(role) LOGIN", on: database)
        defer { _ = try? cluster.psql("DROP OWNED BY \(role); DROP ROLE \(role)", on: database) }
        let owner = try PostgreSQLConnection(conninfo: database)
        #expect(try PostgreSQLSearchIndexer.pendingEntries(on: owner) == .merged)
        let other = try PostgreSQLConnection(
            conninfo: database.replacingOccurrences(of: "postgres@", with: "\(role)@"))
        #expect(try PostgreSQLSearchIndexer.pendingEntries(on: other) == .left)
        let error = #expect(throws: PostgreSQLError.self) {
            _ = try other.query(PostgreSQLSearchIndexer.mergePendingEntries)
        }
        #expect(error?.sqlState == "42501")
    }

    /// A piece's keys in the index are its account's: a search of a small account reads
    /// its own few chunks, not the posting list of a big account holding the same piece.
    @Test func aPieceReadsTheEntriesOfItsAccountAlone() async throws {
        let (schema, accounts) = try await schema(withAccounts: "b@x", "s@x")
        let (big, small) = (accounts[0], accounts[1])
        let connection = try PostgreSQLConnection(conninfo: schema)
        try connection.transaction { () throws(PostgreSQLError) in
            for index in 0..<300 {
                try insert("会议 \(index)", day: index % 28 + 1, account: big, on: connection)
            }
            for index in 0..<3 {
                try insert("会 \(index)", day: index + 1, account: small, on: connection)
            }
        }
        try indexAll(account: big, on: connection)
        try indexAll(account: small, on: connection)
        let plan = try connection.pipeline([
            .init(sql: "BEGIN", parameters: []),
            .init(sql: PostgreSQLNoteStore.bucketPlans, parameters: []),
            .init(
                sql: "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + PostgreSQLNoteStore.pageByYear,
                parameters: [
                    .integer(small), .texts(["会"]), .text("会"), .text("2026-12-31 23:59:59"),
                    .integer(0), .integer(50),
                ]),
            .init(sql: "COMMIT", parameters: []),
        ])[2]
        let lines = (0..<plan.count).map { plan.text($0, 0) }
        let lookup = lines.first {
            $0.contains("Bitmap Index Scan on search_chunks_pieces")
        }
        #expect(lookup?.contains("rows=3 ") == true, "\(lines.joined(separator: "\n"))")
        let found = try PostgreSQLNoteStore.search(
            account: small, after: nil, needle: "会", limit: 50, sample: 1,
            on: connection)
        #expect(found.map(\.content).sorted() == ["会 0", "会 1", "会 2"])
    }

    /// A page of a query of three characters or more reads the chunks of one month after
    /// another, newest first, and no more months once it is full: twelve months of ten
    /// matches each, a page of 15 reads two of them, and its notes are the newest. Five
    /// characters and more through their own index, four through the piece index, three
    /// through their own.
    @Test(arguments: [
        (
            PostgreSQLNoteStore.pageOfFives, ["zebra", "ebraf", "brafi", "rafis", "afish"],
            "zebrafish"
        ),
        (PostgreSQLNoteStore.pageByMonth, ["fish"], ""),
        (PostgreSQLNoteStore.pageOfTriples, ["fis"], ""),
    ])
    func aPageReadsMonthsOnlyUntilItIsFull(sql: String, pieces: [String], window: String)
        async throws
    {
        let (schema, accounts) = try await schema(withAccounts: "m@x")
        let account = accounts[0]
        let connection = try PostgreSQLConnection(conninfo: schema)
        try connection.transaction { () throws(PostgreSQLError) in
            for month in 1...12 {
                for day in 1...10 {
                    try insert(
                        "zebrafish \(month)-\(day)", day: day, month: month, account: account,
                        on: connection)
                }
            }
        }
        try indexAll(account: account, on: connection)
        let parameters: [PostgreSQLValue] = [
            .integer(account), .texts(pieces), .text(window), .text("2026-12-31 23:59:59"),
            .integer(0), .integer(15),
        ]
        let statements: [PostgreSQLConnection.Statement] = [
            .init(sql: "BEGIN", parameters: []),
            .init(sql: PostgreSQLNoteStore.bucketPlans, parameters: []),
            .init(sql: "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + sql, parameters: parameters),
            .init(sql: sql, parameters: parameters),
            .init(sql: "COMMIT", parameters: []),
        ]
        let results = try connection.pipeline(statements)
        let lines = (0..<results[2].count).map { results[2].text($0, 0) }
        let scan = lines.first { $0.contains("Bitmap Heap Scan on search_chunks") }
        #expect(scan?.contains("loops=2)") == true, "\(lines.joined(separator: "\n"))")
        // The statement leaves its rows' order to the store, which sorts them.
        let page = try (0..<results[3].count).map { try PostgreSQLNoteStore.note(results[3], $0) }
            .sorted { ($0.position.sortKey, $0.id) > ($1.position.sortKey, $1.id) }
        #expect(
            page.map(\.content)
                == (1...10).reversed().map { "zebrafish 12-\($0)" }
                + (6...10).reversed().map { "zebrafish 11-\($0)" })
    }

    /// Purging a removed note's tombstone before the indexer read it takes the note's
    /// chunks along, and its entry of the previous release's layout (which that release's
    /// servers read during an upgrade), so that neither is left behind for good.
    @Test func purgingATombstoneTakesTheNotesChunksAlong() async throws {
        let schema = try cluster.createSchema()
        let store = try PostgreSQLNoteStore(conninfo: schema)
        defer { store.close() }
        let account = try await store.createAccount(
            email: "p@x", tokenHash: nil, passwordHash: nil
        ).id
        let connection = try PostgreSQLConnection(conninfo: schema)
        try insert(
            "zebrafish " + String(repeating: "long note ", count: 300), day: 1, account: account,
            on: connection)
        try indexAll(account: account, on: connection)
        _ = try connection.query(
            """
            INSERT INTO search_entries (account_id, note_id, sort_key, version, folded_content)
            SELECT account_id, id, sort_key, version, folded_content FROM notes
            """)
        func left() throws -> [Int64] {
            let rows = try connection.query(
                """
                SELECT (SELECT count(*) FROM search_chunks), (SELECT count(*) FROM search_entries)
                """)
            return [rows.int64(0, 0), rows.int64(0, 1)]
        }
        #expect(try left() == [3, 1])
        _ = try connection.query("DELETE FROM notes WHERE account_id = $1", .integer(account))
        #expect(try await store.purgeChanges(removedBefore: Int64.max) == 1)
        #expect(try left() == [0, 0])
    }

    /// A new schema with an account for each email, and the store that made them closed:
    /// its indexer stopped, so that the test's own connections and batches are the only
    /// ones at work.
    private func schema(withAccounts emails: String...) async throws -> (String, [Int64]) {
        let schema = try cluster.createSchema()
        let store = try PostgreSQLNoteStore(conninfo: schema)
        defer { store.close() }
        var accounts: [Int64] = []
        for email in emails {
            accounts.append(
                try await store.createAccount(email: email, tokenHash: nil, passwordHash: nil).id)
        }
        return (schema, accounts)
    }

    /// Returns once the indexer's progress is at the account's last change (a minute at
    /// most: the indexer's own thread, on a loaded machine).
    private func untilIndexed(_ account: Int64, on connection: PostgreSQLConnection)
        async throws
    {
        try await Poll.until(
            "the indexer's progress at the account's last change", timeout: .seconds(60),
            every: .milliseconds(20)
        ) {
            let rows = try connection.query(
                """
                SELECT p.indexed_seq = a.change_seq FROM accounts a
                JOIN search_chunks_progress p ON p.account_id = a.id WHERE a.id = $1
                """, .integer(account))
            return rows.count == 1 && rows.text(0, 0) == "t"
        }
    }

    private func insert(
        _ content: String, day: Int, month: Int = 3, account: Int64,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) {
        let date = String(format: "2026-%02d-%02d 09:00:00", month, day)
        _ = try connection.query(
            """
            INSERT INTO notes (account_id, date, sort_key, content, folded_content, created_at,
                updated_at)
            VALUES ($1, $2, $2, $3, $4, 0, 0)
            """, .integer(account), .text(date), .text(content),
            .text(TextFolding.fold(content)))
    }

    private func indexAll(account: Int64, on connection: PostgreSQLConnection) throws {
        while case .indexed(_, let remaining) = try PostgreSQLSearchIndexer.index(
            account: account, batch: 250, on: connection), remaining > 0
        {}
    }

    /// Every page of every query, searched with a sample of 16 notes (so that the rest
    /// comes from the index), is the scan's.
    private func expectScan(
        account: Int64, on connection: PostgreSQLConnection, _ state: String
    ) throws {
        let all = try PostgreSQLNoteStore.walk(
            account: account, after: nil, needle: nil, limit: 10_000, on: connection)
        for query in Self.queries {
            let expected = PostgreSQLSearchTests.scan(all, for: query).map(\.id)
            var found: [Int64] = []
            var after: NotePosition?
            while true {
                let page = try PostgreSQLNoteStore.search(
                    account: account, after: after, needle: TextFolding.fold(query), limit: 5,
                    sample: 16, on: connection)
                found += page.map(\.id)
                guard page.count == 5, let last = page.last else { break }
                after = last.position
            }
            #expect(found == expected, "\(state): query \(query.debugDescription)")
        }
    }
}
