import Foundation
import MyNotesDomain
import MyNotesTesting
import Testing

@testable import PostgreSQLStore

/// The baseline schema over a database made by the steps it replaced: the fixture
/// `Fixtures/postgresql-made-2026-12-07.sql` is `pg_dump`'s plain SQL of such a database,
/// made through the store by the code of that day (scripts/migration-fixtures/README.md says
/// how), and its `.json` is what that code answered for it (``StoreSnapshot``).
@Suite(.postgreSQLInstalled, .onTestThreads)
struct PostgreSQLBaselineTests {
    static let fixtureName = "postgresql-made-2026-12-07"

    let cluster: PostgreSQLCluster

    init() throws {
        cluster = try #require(try PostgreSQLCluster.shared())
    }

    static func fixture(_ extension: String) throws -> URL {
        try #require(
            Bundle.module.url(
                forResource: fixtureName, withExtension: `extension`, subdirectory: "Fixtures"))
    }

    /// A new database holding the fixture, restored by psql as an operator would.
    func restoredFixture() throws -> String {
        let database = try cluster.createDatabase()
        // Not Foundation's Process: see ChildProcess for the crash it avoids.
        let restore = ChildProcess()
        restore.executableURL = URL(fileURLWithPath: PostgreSQLCluster.binaries + "/psql")
        restore.arguments = [
            database, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", try Self.fixture("sql").path,
        ]
        try restore.run()
        restore.waitUntilExit()
        #expect(restore.terminationStatus == 0)
        return database
    }

    func recorded(on database: String) throws -> [String] {
        try cluster.psql("SELECT name FROM schema_migrations ORDER BY name", on: database)
            .split(separator: "\n").map(String.init)
    }

    @Test func aDatabaseMadeBeforeTheBaselineOpensWithNothingLost() async throws {
        let database = try restoredFixture()
        let before = try StoreSnapshot.decoded(from: try Self.fixture("json"))
        let firstApplied = try cluster.psql(
            "SELECT min(applied_at) FROM schema_migrations", on: database)
        #expect(before.accounts.count == 3)
        #expect(try recorded(on: database).count == PostgreSQLMigrations.squashed.count)
        let store = try PostgreSQLNoteStore(conninfo: database)
        defer { store.close() }
        let after = try await StoreSnapshot.take(of: store)
        #expect(after.accounts.count == before.accounts.count)
        for (was, now) in zip(before.accounts, after.accounts) { #expect(now == was) }
        // The squashed steps' names are gone; the baseline's takes the first one's time.
        #expect(try recorded(on: database) == PostgreSQLMigrations.all.map(\.name))
        #expect(
            try cluster.psql("SELECT applied_at FROM schema_migrations", on: database)
                == firstApplied)

        // The upgraded database goes on working: a new note takes the next change and is
        // found, through the index once the indexer has caught up.
        let ann = try #require(before.accounts.first)
        let note = try await store.addNote(
            NoteDraft(date: "2026-12-08", content: "après la mise à jour 升级"),
            account: ann.id, quota: .unlimited)
        #expect(note.id > ann.notes.map(\.id).max() ?? 0)
        #expect(try await store.changePosition(account: ann.id) == ann.changePosition + 1)
        await store.searchIndexer.untilIdle()
        let found = try await store.notes(
            account: ann.id, page: NotePage(limit: 10, containing: "升级"))
        #expect(found.map(\.id) == [note.id])
    }

    /// The baseline is written as the schema the steps left: a new database's catalog
    /// (tables and their columns, indexes, constraints, triggers, functions, sequences,
    /// extensions) is the restored fixture's.
    @Test func aNewDatabaseHasTheSchemaTheSquashedStepsLeft() throws {
        let made = try cluster.createDatabase()
        try PostgreSQLNoteStore(conninfo: made).close()
        let history = try restoredFixture()
        let new = try cluster.psql(Self.catalog, on: made).split(separator: "\n")
        let old = try cluster.psql(Self.catalog, on: history).split(separator: "\n")
        #expect(new.count > 100)
        #expect(new.count == old.count)
        for (new, old) in zip(new, old) { #expect(new == old) }
        #expect(Set(new) == Set(old))
    }

    /// What `doctor` and the store count a record by: every squashed step as the
    /// baseline, a later step as itself, and a record partway through them as it is.
    @Test func theSquashedStepsAreRecognisedAsTheBaseline() {
        let squashed = Set(PostgreSQLMigrations.squashed)
        #expect(PostgreSQLMigrations.recognised(squashed) == ["baseline"])
        #expect(
            PostgreSQLMigrations.recognised(squashed.union(["later"])) == ["baseline", "later"])
        #expect(PostgreSQLMigrations.recognised(["baseline"]) == ["baseline"])
        let partway = squashed.subtracting([PostgreSQLMigrations.squashed[2]])
        #expect(PostgreSQLMigrations.recognised(partway) == partway)
    }

    /// A database that stopped partway through the squashed steps is refused with the way
    /// out, not patched.
    @Test func aDatabasePartwayThroughTheSquashedStepsIsRefused() throws {
        let database = try cluster.createDatabase()
        _ = try cluster.psql(
            """
            CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at bigint NOT NULL);
            INSERT INTO schema_migrations VALUES ('accounts-and-notes', 1);
            """, on: database)
        #expect {
            try PostgreSQLNoteStore(conninfo: database).close()
        } throws: { error in
            "\(error)".contains("build from before the baseline")
        }
    }

    /// The schema of the connection's database, one object or column a line, sorted: what
    /// two databases must share to be the same schema. Columns are listed by their order
    /// among the live ones (a dropped column keeps its number), with type, default,
    /// identity, storage, compression, collation and statistics target; functions with
    /// their source.
    static let catalog = """
        WITH s AS (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
        SELECT line FROM (
            SELECT 'relation ' || c.relname || ' ' || c.relkind::text || ' '
                || c.relpersistence::text AS line
            FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM s)
                AND c.relkind IN ('r', 'i', 'S', 'v', 'm', 'p')
            UNION ALL
            SELECT 'column ' || c.relname || ' '
                || row_number() OVER (PARTITION BY c.oid ORDER BY a.attnum) || ' '
                || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                || ' notnull ' || a.attnotnull
                || ' default ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '-')
                || ' identity ' || a.attidentity::text || ' storage ' || a.attstorage::text
                || ' compression ' || a.attcompression::text
                || ' collation ' || coalesce(co.collname, '-')
                || ' statistics ' || a.attstattarget::text
            FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                LEFT JOIN pg_collation co ON co.oid = a.attcollation
            WHERE c.relnamespace = (SELECT oid FROM s) AND c.relkind IN ('r', 'i')
                AND a.attnum > 0 AND NOT a.attisdropped
            UNION ALL
            SELECT 'index ' || pg_get_indexdef(i.indexrelid)
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE c.relnamespace = (SELECT oid FROM s)
            UNION ALL
            SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' '
                || pg_get_constraintdef(oid)
            FROM pg_constraint WHERE connamespace = (SELECT oid FROM s)
            UNION ALL
            SELECT 'trigger ' || pg_get_triggerdef(t.oid) || ' enabled ' || t.tgenabled::text
            FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
            WHERE c.relnamespace = (SELECT oid FROM s) AND NOT t.tgisinternal
            UNION ALL
            SELECT 'function ' || p.proname || '(' || pg_get_function_arguments(p.oid) || ') '
                || pg_get_function_result(p.oid) || ' ' || l.lanname || ' '
                || p.provolatile::text || p.proparallel::text || ' ' || md5(p.prosrc)
            FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
            WHERE p.pronamespace = (SELECT oid FROM s)
            UNION ALL
            SELECT 'extension ' || extname || ' ' || extversion || ' '
                || extnamespace::regnamespace
            FROM pg_extension
        ) AS everything ORDER BY line COLLATE "C"
        """
}
