import Foundation
import MyNotesDomain
import Testing

@testable import SQLiteStore

/// The baseline schema over a database made by the steps it replaced: the fixture
/// `Fixtures/sqlite-made-2026-12-07.sqlite` is such a database, made through the store by
/// the code of that day (scripts/migration-fixtures/README.md says how), and its `.json` is
/// what that code answered for it (``StoreSnapshot``).
@Suite struct SQLiteBaselineTests {
    static let fixtureName = "sqlite-made-2026-12-07"

    let database: TemporaryDatabaseFile

    init() throws {
        database = try TemporaryDatabaseFile()
    }

    static func fixture(_ extension: String) throws -> URL {
        try #require(
            Bundle.module.url(
                forResource: fixtureName, withExtension: `extension`, subdirectory: "Fixtures"))
    }

    /// The fixture, copied where the test may change it.
    func copyFixture() throws {
        try FileManager.default.copyItem(
            at: try Self.fixture("sqlite"), to: URL(fileURLWithPath: database.path))
    }

    @Test func aDatabaseMadeBeforeTheBaselineOpensWithNothingLost() async throws {
        defer { database.remove() }
        try copyFixture()
        let before = try StoreSnapshot.decoded(from: try Self.fixture("json"))
        let firstApplied = try database.integer("SELECT min(applied_at) FROM schema_migrations")
        #expect(before.accounts.count == 3)
        // doctor, which never migrates, takes the squashed steps' names for the baseline.
        let findings = SQLiteDoctor(path: database.path).examine()
        #expect(
            findings.contains { $0.severity == .ok && $0.message.hasPrefix("schema up to date") },
            "\(findings)")
        let after = try await database.withStore { store in
            try await StoreSnapshot.take(of: store)
        }
        #expect(after.accounts.count == before.accounts.count)
        for (was, now) in zip(before.accounts, after.accounts) { #expect(now == was) }
        // The squashed steps' names are gone; the baseline's takes the first one's time.
        #expect(try database.texts("SELECT name FROM schema_migrations") == ["baseline"])
        #expect(try database.integer("SELECT applied_at FROM schema_migrations") == firstApplied)
        #expect(SQLiteMigrations.all.map(\.name) == ["baseline"])

        // The upgraded database goes on working: the usage totals still count the notes
        // (a quota of as many notes as there are refuses one more), a new note takes the
        // next change and is found, and opening again applies nothing.
        let ann = try #require(before.accounts.first)
        try await database.withStore { store in
            await #expect(throws: StoreError.self) {
                _ = try await store.addNote(
                    NoteDraft(date: "2026-12-08", content: "one too many"), account: ann.id,
                    quota: NoteQuota(notes: ann.notes.count, bytes: nil))
            }
            let note = try await store.addNote(
                NoteDraft(date: "2026-12-08", content: "après la mise à jour 升级"),
                account: ann.id, quota: .unlimited)
            #expect(note.id > ann.notes.map(\.id).max() ?? 0)
            #expect(try await store.changePosition(account: ann.id) == ann.changePosition + 1)
            let found = try await store.notes(
                account: ann.id, page: NotePage(limit: 10, containing: "升级"))
            #expect(found.map(\.id) == [note.id])
        }
        #expect(try database.texts("SELECT name FROM schema_migrations") == ["baseline"])
    }

    /// The baseline is written as the schema the steps left: a new database's tables,
    /// indexes, triggers and FTS5 tables are the fixture's, statement for statement (the
    /// text of each, its spacing aside) and column for column.
    @Test func aNewDatabaseHasTheSchemaTheSquashedStepsLeft() async throws {
        defer { database.remove() }
        try await database.withStore { _ in }
        let made = try Self.schema(at: database.path)
        let old = try TemporaryDatabaseFile()
        defer { old.remove() }
        try FileManager.default.copyItem(
            at: try Self.fixture("sqlite"), to: URL(fileURLWithPath: old.path))
        let history = try Self.schema(at: old.path)
        #expect(made.count > 20)
        #expect(made.count == history.count)
        for (new, old) in zip(made, history) { #expect(new == old) }
    }

    /// What `doctor` and the store count a record by: every squashed step as the
    /// baseline, a later step as itself, and a record partway through them as it is.
    @Test func theSquashedStepsAreRecognisedAsTheBaseline() {
        let squashed = Set(SQLiteMigrations.squashed)
        #expect(SQLiteMigrations.recognised(squashed) == ["baseline"])
        #expect(SQLiteMigrations.recognised(squashed.union(["later"])) == ["baseline", "later"])
        #expect(SQLiteMigrations.recognised(["baseline"]) == ["baseline"])
        let partway = squashed.subtracting([SQLiteMigrations.squashed[2]])
        #expect(SQLiteMigrations.recognised(partway) == partway)
    }

    /// A database that stopped partway through the squashed steps, or counted its steps
    /// in `user_version` before they had names, is refused with the way out, not patched.
    @Test(arguments: [
        "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)"
            + " WITHOUT ROWID; INSERT INTO schema_migrations VALUES ('accounts-and-notes', 1);",
        "PRAGMA user_version = 2",
    ])
    func aDatabasePartwayThroughTheSquashedStepsIsRefused(setUp: String) async throws {
        defer { database.remove() }
        try database.execute(setUp)
        do {
            try await database.withStore { _ in }
            Issue.record("the database opened")
        } catch StoreError.cannotOpen(_, let cause) {
            #expect("\(cause)".contains("build from before the baseline"))
        }
    }

    /// Every object of the schema, as lines: `sqlite_master`'s type, name, table and text
    /// (spacing made uniform, so that a column added by `ALTER TABLE` reads as one written
    /// in `CREATE TABLE`), then each table's columns as `PRAGMA table_xinfo` lists them.
    /// Statistics SQLite keeps of its own are left out.
    static func schema(at path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.finishStatements() }
        let objects = try connection.statement(
            """
            SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master
            WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name
            """)
        var lines: [String] = []
        var tables: [String] = []
        while try objects.step() {
            lines.append(
                [objects.text(0), objects.text(1), objects.text(2), normalised(objects.text(3))]
                    .joined(separator: " | "))
            if objects.text(0) == "table" { tables.append(objects.text(1)) }
        }
        connection.finishStatements()
        for table in tables {
            let columns = try connection.statement("SELECT * FROM pragma_table_xinfo(?)")
            try columns.bind(.text(table))
            while try columns.step() {
                lines.append(
                    "\(table) column \(columns.int64(0)) \(columns.text(1)) \(columns.text(2))"
                        + " notnull \(columns.int64(3)) default \(columns.text(4))"
                        + " pk \(columns.int64(5)) hidden \(columns.int64(6))")
            }
            connection.finishStatements()
        }
        return lines
    }

    /// `sql` with every run of spaces and line breaks made one space, and none after `(`
    /// or before `,` and `)`.
    static func normalised(_ sql: String) -> String {
        var text = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (spaced, tight) in [(" ,", ","), (" )", ")"), ("( ", "(")] {
            text = text.replacingOccurrences(of: spaced, with: tight)
        }
        return text
    }
}
