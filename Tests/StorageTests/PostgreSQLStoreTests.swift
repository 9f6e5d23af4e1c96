import Dispatch
import Foundation
import Locking
import MyNotesDomain
import MyNotesTesting
import Telemetry
import Testing

@testable import PostgreSQLStore
@testable import StorageSupport

/// What only the PostgreSQL store does: SQLSTATEs, migrations shared by many servers, the
/// pool, prepared statements, durable commits, reconnection. The contract itself runs on
/// both backends in the other suites.
@Suite(.postgreSQLInstalled, .onTestThreads)
struct PostgreSQLStoreTests {
    let cluster: PostgreSQLCluster
    let database: String

    init() throws {
        cluster = try #require(try PostgreSQLCluster.shared())
        database = try cluster.createDatabase()
    }

    func open(connections: Int = StoreLimits.defaultConnections) throws -> PostgreSQLNoteStore {
        try PostgreSQLNoteStore(
            conninfo: database, limits: StoreLimits(connections: connections))
    }

    /// Readiness and metrics on PostgreSQL: ready while the schema is this build's; not ready, with
    /// the reason, when a migration is missing; the pool on /metrics.
    @Test func readinessFollowsTheSchemaAndMetricsShowThePool() async throws {
        let store = try open(connections: 3)
        defer { store.close() }
        #expect(await store.readiness() == .ready)
        let figures = store.figures()
        #expect(figures.engine == .postgreSQL)
        #expect(figures.pool?.capacity == 3)
        #expect(figures.waitingWrites == 0)
        #expect(figures.searchIndexWaiting == 0)
        _ = try cluster.psql(
            "DELETE FROM schema_migrations WHERE name = 'baseline'", on: database)
        #expect(
            await store.readiness()
                == .notReady(reason: "migration baseline is not applied"))
    }

    /// A failure keeps what PostgreSQL said: here a trigger refuses an insert with
    /// `check_violation` (SQLSTATE 23514).
    @Test func aStoreFailureKeepsPostgreSQLsSQLState() async throws {
        let store = try open()
        defer { store.close() }
        let account = try await store.createAccount(
            email: "ann@x", tokenHash: nil, passwordHash: nil)
        _ = try cluster.psql(
            """
            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'notes are refused' USING ERRCODE = 'check_violation'; END $$;
            CREATE TRIGGER refuse_notes BEFORE INSERT ON notes
                FOR EACH ROW EXECUTE FUNCTION refuse();
            """, on: database)
        do throws(StoreError) {
            _ = try await store.addNote(
                NoteDraft(date: "2026-12-01", content: "x"), account: account.id,
                quota: .unlimited)
            Issue.record("the insert went through")
        } catch .database(let error as PostgreSQLError) {
            #expect(error.sqlState == "23514")
            #expect(error.sqlStateClass == "23")
            #expect(error.message == "notes are refused")
            #expect(error.sql?.contains("INSERT INTO notes") == true)
            #expect("\(StoreError.database(error))".contains("23514"))
        } catch {
            Issue.record("expected a PostgreSQL error, got \(error)")
        }
    }

    /// Adds to one account that arrive together share transactions (group commit), and
    /// one that PostgreSQL refuses fails alone: here a trigger refuses every content
    /// "refused", and the adds around it in its batch are stored and answered.
    @Test func addsToOneAccountShareCommitsAndOneFailureFailsOnlyItself() async throws {
        let store = try open()
        defer { store.close() }
        let account = try await store.createAccount(
            email: "ann@x", tokenHash: nil, passwordHash: nil
        ).id
        _ = try cluster.psql(
            """
            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.content = 'refused' THEN
                    RAISE EXCEPTION 'refused' USING ERRCODE = 'check_violation';
                END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER refuse_notes BEFORE INSERT ON notes
                FOR EACH ROW EXECUTE FUNCTION refuse();
            """, on: database)
        let outcomes = await withTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<200 {
                group.addTask {
                    let content = index.isMultiple(of: 10) ? "refused" : "note \(index)"
                    do throws(StoreError) {
                        _ = try await store.addNote(
                            NoteDraft(date: "2026-12-01", content: content), account: account,
                            quota: .standard)
                        return (index, nil)
                    } catch .database(let error as PostgreSQLError) {
                        return (index, error.sqlState)
                    } catch {
                        return (index, "\(error)")
                    }
                }
            }
            return await group.reduce(into: [Int: String?]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 200)
        // Each "refused" failed with the trigger's SQLSTATE, and nothing else failed.
        for index in stride(from: 0, to: 200, by: 10) { #expect(outcomes[index] == "23514") }
        #expect(outcomes.filter { !$0.key.isMultiple(of: 10) }.allSatisfy { $0.value == nil })
        let stored = try await store.notes(account: account, page: NotePage(limit: 1_000))
        #expect(stored.count == 180)
        #expect(!stored.contains { $0.content == "refused" })
        // Fewer transactions than adds: they were batched.
        let batches = store.statistics.commitBatchSize.snapshot()
        #expect(Int(batches.sum) == 200)
        #expect(batches.count < 200)
    }

    /// The legacy query's first pages are read in batches: each caller, among many at
    /// once, gets the answer to its own email and token, `admit` is asked once for each,
    /// and one whose statement PostgreSQL cannot take (a NUL in the email) fails alone.
    @Test func firstPagesReadTogetherEachGetTheirOwnAnswer() async throws {
        let store = try open(connections: 2)
        defer { store.close() }
        let ann = try await store.createAccount(email: "ann@x", tokenHash: [1])
        let bob = try await store.createAccount(email: "bob@x", tokenHash: [2])
        for (account, name) in [(ann, "ann"), (bob, "bob")] {
            for day in 1...4 {
                _ = try await store.addNote(
                    NoteDraft(date: "2026-11-0\(day)", content: "\(name) \(day)"),
                    account: account.id, quota: .unlimited)
            }
        }
        let asked = EventCounter("admit asked")
        let answers = await withTaskGroup(of: (Int, String).self) { group in
            for index in 0..<300 {
                let (email, token): (String, [UInt8]) =
                    switch index % 5 {
                    case 0: ("ann@x", [1])
                    case 1: ("BOB@x", [2])
                    case 2: ("ann@x", [2])  // bob's token: not ann's
                    case 3: ("nobody@x", [1])
                    default: ("bad\u{0}@x", [1])
                    }
                group.addTask {
                    do {
                        let (check, notes) = try await store.checkedNotes(
                            email: email, presenting: token,
                            admitting: { check in
                                asked.signal()
                                return check?.holdsToken == true
                            }, page: NotePage(limit: 2))
                        let who = check.map { "\($0.account.email) \($0.holdsToken)" } ?? "none"
                        return (index, "\(who): \(notes.map(\.content))")
                    } catch StoreError.database(let error as PostgreSQLError) {
                        return (index, error.sqlState)
                    } catch {
                        return (index, "\(error)")
                    }
                }
            }
            return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        let expected = [
            #"ann@x true: ["ann 4", "ann 3"]"#, #"bob@x true: ["bob 4", "bob 3"]"#,
            "ann@x false: []", "none: []", "22021",
        ]
        #expect(answers.count == 300)
        for (index, answer) in answers { #expect(answer == expected[index % 5], "read \(index)") }
        // Every read but those refused before they ran asked `admit` exactly once.
        #expect(asked.value == 240)
    }

    /// Servers started together take the advisory lock in turn: one applies each step,
    /// the others find it applied, and all of them work.
    @Test func serversStartingTogetherMigrateOnce() async throws {
        let opened = Lock<[Result<PostgreSQLNoteStore, StoreError>]>([])
        let database = self.database
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let store = Result { () throws(StoreError) in
                try PostgreSQLNoteStore(conninfo: database, limits: StoreLimits(connections: 2))
            }
            opened.withLock { $0.append(store) }
        }
        let stores = try opened.withLock { $0 }.map { try $0.get() }
        defer { stores.forEach { $0.close() } }
        let recorded = try cluster.psql(
            "SELECT name || ' ' || count(*) FROM schema_migrations GROUP BY name ORDER BY name",
            on: database)
        let expected = PostgreSQLMigrations.all.map { "\($0.name) 1" }.sorted()
        #expect(recorded.split(separator: "\n").map(String.init) == expected)
        for (index, store) in stores.enumerated() {
            _ = try await store.createAccount(email: "user\(index)@x", tokenHash: [UInt8(index)])
        }
        #expect(try await stores[0].allAccounts().count == stores.count)
    }

    @Test func refusesASchemaNewerThanItKnows() throws {
        try open().close()
        _ = try cluster.psql(
            "INSERT INTO schema_migrations VALUES ('from-a-later-version', 0)", on: database)
        #expect {
            _ = try open()
        } throws: { error in
            guard case StoreError.newerSchema(_, let unknown) = error else { return false }
            return unknown == ["from-a-later-version"]
        }
    }

    /// Every connection commits durably and compiles no plan (JIT), even where the
    /// database's defaults say otherwise: with JIT, a search's plan spent 20 – 40 ms
    /// compiling.
    @Test func commitsDurablyAndCompilesNothingWhateverTheDatabaseDefaults() async throws {
        let name = try #require(database.split(separator: "/").last)
        _ = try cluster.psql(
            """
            ALTER DATABASE \(name) SET synchronous_commit = off;
            ALTER DATABASE \(name) SET jit = on;
            ALTER DATABASE \(name) SET jit_above_cost = 0;
            """, on: database)
        let store = try open(connections: 1)
        defer { store.close() }
        let settings = try store.pool.withConnection(retry: .never) {
            connection throws(PostgreSQLError) in
            let rows = try connection.query(
                "SELECT current_setting('synchronous_commit'), current_setting('jit')")
            return [rows.text(0, 0), rows.text(0, 1)]
        }
        #expect(settings == ["on", "off"])
    }

    /// A statement is prepared on a connection the first time it runs there, then reused.
    @Test func preparesEachStatementOncePerConnection() async throws {
        let store = try open(connections: 1)
        defer { store.close() }
        for _ in 0..<20 { _ = try await store.account(email: "ann@x") }
        let prepared = try store.pool.withConnection(retry: .never) {
            connection throws(PostgreSQLError) in
            try connection.query(
                """
                SELECT count(*) FROM pg_prepared_statements
                WHERE statement LIKE '%FROM accounts WHERE email_key = $1'
                """
            ).int64(0, 0)
        }
        #expect(prepared == 1)
    }

    /// A pipelined statement with `eachRow` hands its rows over one at a time, as
    /// PostgreSQL sends them (a search's page of long notes is made into notes while the
    /// next are read), between the other statements' results; one that fails after some
    /// rows has handed those over, fails the pipeline, and leaves the connection usable.
    @Test func aPipelinedStatementHandsOverItsRowsOneAtATime() throws {
        let connection = try PostgreSQLConnection(conninfo: database)
        var handed: [[Int64]] = []
        let results = try connection.pipeline([
            .init(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", parameters: []),
            .init(
                sql: "SELECT g FROM generate_series(1, $1::int) g", parameters: [.integer(5)],
                eachRow: { rows in handed.append((0..<rows.count).map { rows.int64($0, 0) }) }),
            .init(sql: "SELECT 42", parameters: []),
            .init(sql: "COMMIT", parameters: []),
        ])
        #expect(handed == [[1], [2], [3], [4], [5]])
        #expect(results[1].count == 0)
        #expect(results[2].int64(0, 0) == 42)

        handed = []
        let error = #expect(throws: PostgreSQLError.self) {
            _ = try connection.pipeline([
                .init(
                    sql: "SELECT 10 / (3 - g) FROM generate_series(1, 5) g", parameters: [],
                    eachRow: { rows in
                        handed.append((0..<rows.count).map { rows.int64($0, 0) })
                    })
            ])
        }
        #expect(error?.sqlState == "22012")
        #expect(handed == [[5], [10]])
        #expect(connection.isReusable)
        #expect(try connection.query("SELECT 7").int64(0, 0) == 7)
    }

    /// However many calls come at once, the store holds at most its pool's connections,
    /// and the change listener's and the search indexer's.
    @Test func holdsNoMoreConnectionsThanItsPool() async throws {
        let store = try open(connections: 3)
        defer { store.close() }
        let account = try await store.createAccount(email: "ann@x", tokenHash: [1])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    if index.isMultiple(of: 4) {
                        _ = try await store.addNote(
                            NoteDraft(date: "2026-12-01", content: "\(index)"),
                            account: account.id, quota: .unlimited)
                    } else {
                        _ = try await store.account(email: "ann@x", presenting: [1])
                    }
                }
            }
            try await group.waitForAll()
        }
        let held = try cluster.psql(
            """
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'mynotes-server'
            """, on: database)
        #expect(Int(held.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99 <= 3 + 2)
        #expect(try await store.notes(account: account.id).count == 50)
    }

    /// While the database is down, calls fail at once with `overloaded` (nothing was done:
    /// "retry later", a 503); once it is back, the store reconnects by itself, reads and
    /// writes alike, and every acknowledged write is there.
    @Test func reconnectsByItselfOnceTheDatabaseIsBack() async throws {
        let own = try PostgreSQLCluster.startPrivate()
        defer { try? own.stop() }
        let store = try PostgreSQLNoteStore(
            conninfo: try own.createDatabase(), limits: StoreLimits(connections: 4))
        defer { store.close() }
        let account = try await store.createAccount(email: "ann@x", tokenHash: [1])
        let before = try await store.addNote(
            NoteDraft(date: "2026-12-01", content: "before"), account: account.id,
            quota: .unlimited)

        try own.stopServer()
        await #expect {
            _ = try await store.notes(account: account.id)
        } throws: { error in
            if case StoreError.overloaded = error { return true }
            return false
        }
        await #expect(throws: StoreError.self) {
            _ = try await store.addNote(
                NoteDraft(date: "2026-12-01", content: "lost"), account: account.id,
                quota: .unlimited)
        }
        try own.startServer()

        // Every pooled connection was closed by the restart; none is used again.
        let after = try await store.addNote(
            NoteDraft(date: "2026-12-02", content: "after"), account: account.id,
            quota: .unlimited)
        #expect(try await store.notes(account: account.id) == [after, before])
        #expect(try await store.account(email: "ann@x", presenting: [1])?.holdsToken == true)

        // A restart while connections sit idle in the pool: they are replaced, unseen.
        try own.stopServer()
        try own.startServer()
        for _ in 0..<8 {
            #expect(try await store.notes(account: account.id).count == 2)
        }
    }
}

/// The counters every server shares: token buckets and windows of failures.
@Suite(.postgreSQLInstalled)
struct PostgreSQLSharedLimitTests {
    @Test func bucketsGiveTheirBurstThenAskToWaitAndTakeFromAllOrNone() async throws {
        let cluster = try #require(try PostgreSQLCluster.shared())
        let conninfo = try cluster.createSchema()
        let first = try PostgreSQLNoteStore(conninfo: conninfo)
        let second = try PostgreSQLNoteStore(conninfo: conninfo)
        defer { [first, second].forEach { $0.close() } }
        // Refills of an hour: on a busy machine minutes may pass between two calls.
        let address = TokenBucket(key: "test 192.0.2.7", burst: 3, interval: .seconds(3_600))
        let overall = TokenBucket(key: "test *", burst: 10, interval: .seconds(3_600))
        // Two stores, as two servers: one budget.
        #expect(try await first.take(from: [address, overall]) == nil)
        #expect(try await second.take(from: [address, overall]) == nil)
        #expect(try await first.take(from: [overall, address]) == nil)
        let wait = try #require(try await second.take(from: [address, overall]))
        #expect(wait > .seconds(3_000) && wait <= .seconds(3_600))
        // The refusal took nothing from the other bucket: 7 remain of 10.
        for _ in 0..<7 { #expect(try await first.take(from: [overall]) == nil) }
        #expect(try await first.take(from: [overall]) != nil)
    }

    @Test func failuresAreReservedUpToTheirLimitAndGivenBackOrCleared() async throws {
        let cluster = try #require(try PostgreSQLCluster.shared())
        let conninfo = try cluster.createSchema()
        let first = try PostgreSQLNoteStore(conninfo: conninfo)
        let second = try PostgreSQLNoteStore(conninfo: conninfo)
        defer { [first, second].forEach { $0.close() } }
        let window = Duration.seconds(900)
        func keys(_ address: String) -> [FailureLimit] {
            [FailureLimit(key: "account:ann", limit: 2), FailureLimit(key: address, limit: 5)]
        }
        // Two stores, as two servers: one count.
        guard
            case .reserved(let one) = try await first.reserveFailure(
                keys: keys("address:a"), within: window),
            case .reserved(let two) = try await second.reserveFailure(
                keys: keys("address:b"), within: window)
        else {
            Issue.record("the first two are under the limit")
            return
        }
        #expect(one.count == 2 && two.count == 2)
        guard
            case .refused(let wait) = try await first.reserveFailure(
                keys: keys("address:c"), within: window)
        else {
            Issue.record("the third is over the account's limit")
            return
        }
        #expect(wait > .zero && wait <= window)
        // A refusal counted nothing: address:c is free; a release gives a slot back.
        try await second.releaseFailures(two)
        guard
            case .reserved(let three) = try await second.reserveFailure(
                keys: keys("address:c"), within: window)
        else {
            Issue.record("a released slot is free again")
            return
        }
        // Cleared: the account's failures go, and the attempt's own address slot too;
        // address:a keeps its failure.
        try await first.clearFailures(key: "account:ann", releasing: three)
        for _ in 0..<2 {
            guard
                case .reserved = try await first.reserveFailure(
                    keys: keys("address:a"), within: window)
            else {
                Issue.record("the account's failures were cleared")
                return
            }
        }
        let addressOnly = [FailureLimit(key: "address:a", limit: 3)]
        guard case .refused = try await first.reserveFailure(keys: addressOnly, within: window)
        else {
            Issue.record("address:a holds 3 failures: the first, and the two after the clear")
            return
        }
        let addressC = [FailureLimit(key: "address:c", limit: 1)]
        guard case .reserved = try await first.reserveFailure(keys: addressC, within: window) else {
            Issue.record("address:c's slot was given back by the clear")
            return
        }
    }
}
