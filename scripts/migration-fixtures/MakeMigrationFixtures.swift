import Foundation
import MyNotesTesting
import Testing

@testable import PostgreSQLStore
@testable import SQLiteStore

/// Makes the fixtures of `Tests/StorageTests/Fixtures`: a database of each store as the
/// code of the time creates it, filled through the store itself, with the snapshot
/// (``StoreSnapshot``) that code answers for it. Run only by hand, with the code whose
/// databases the fixtures stand for (scripts/migration-fixtures/README.md says how); the
/// tests never make them again, since the code that made them is gone from the tree.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MYNOTES_MAKE_FIXTURES"] != nil))
struct MakeMigrationFixtures {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The accounts, tokens and notes both fixtures hold.
    static func fill(_ store: any NoteStore) async throws {
        let ann = try await store.createAccount(
            email: "ann@example.com", tokenHash: Array(repeating: 0xA1, count: 32),
            passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA")
        try await store.addToken(
            Array(repeating: 0xA2, count: 32), account: ann.id, at: 1_765_000_000_000)
        try await store.touchToken(Array(repeating: 0xA2, count: 32), usedAt: 1_765_100_000_000)
        let operatorAccount = try await store.createAccount(
            email: "ops@example.com", tokenHash: Array(repeating: 0xB1, count: 32),
            passwordHash: nil)
        let zoe = try await store.createAccount(
            email: "Zoë@Example.com", tokenHash: Array(repeating: 0xC1, count: 32),
            passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$em9lc2FsdHNhbHQ$em9laGFzaGhhc2g")

        func add(_ date: String, _ content: String, to account: Account) async throws -> Note {
            try await store.addNote(
                NoteDraft(date: date, content: content), account: account.id, quota: .unlimited)
        }
        _ = try await add("2026-11-28", "Buy milk and eggs", to: ann)
        _ = try await add("2026-11-29 10:00:00", "会议在星期三下午三点，请准时参加", to: ann)
        _ = try await add("2026-11-30", "東京で寿司を食べた 🍣 とても美味しかった", to: ann)
        _ = try await add("2026-12-01", "회의는 내일 오전 열 시입니다", to: ann)
        let russian = try await add("2026-12-02", "Привет, мир — первая заметка", to: ann)
        let removed = try await add("2026-12-03", "forgotten words, soon removed", to: ann)
        let edited = try await add("2026-12-04", "first draft of the plan", to: ann)
        _ = try await add(
            "2026-12-05 18:30:00", "🎉🎂 Birthday party at 7 👨‍👩‍👧 bring a café crème", to: ann)
        let long = (0..<60).map { "Lorem ipsum dolor sit amet \($0), consectetur adipiscing elit." }
            .joined(separator: " ")
        _ = try await add("2026-12-06", long, to: ann)
        _ = try await add(
            "2026-12-01", "Server maintenance window 🛠️ Sunday 02:00", to: operatorAccount)
        _ = try await add("2026-10-01", "Straße und Café in Köln", to: zoe)

        // Changes: a note edited twice (version 3), one redated, one removed (a tombstone).
        _ = try await store.updateNote(
            id: edited.id, account: ann.id, change: NoteChange(content: "second draft of the plan"),
            precondition: .none, quota: .unlimited)
        _ = try await store.updateNote(
            id: edited.id, account: ann.id, change: NoteChange(content: "final draft of the plan"),
            precondition: .none, quota: .unlimited)
        _ = try await store.updateNote(
            id: russian.id, account: ann.id, change: NoteChange(date: "2026-12-07 09:15:00"),
            precondition: .none, quota: .unlimited)
        _ = try await store.removeNote(id: removed.id, account: ann.id, precondition: .none)
    }

    static func write(_ snapshot: StoreSnapshot, as name: String) throws {
        try snapshot.encoded().write(to: fixtures.appendingPathComponent(name))
    }

    @Test func makeTheSQLiteFixture() async throws {
        try FileManager.default.createDirectory(
            at: Self.fixtures, withIntermediateDirectories: true)
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        try await database.withStore { store in
            try await Self.fill(store)
            await store.searchIndexer.untilCaughtUp()
        }
        let snapshot = try await database.withStore { try await StoreSnapshot.take(of: $0) }
        // Every page in the main file: the fixture is one file, without -wal or -shm.
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(!FileManager.default.fileExists(atPath: database.path + "-wal"))
        let target = Self.fixtures.appendingPathComponent("sqlite-made-2026-12-07.sqlite")
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: database.path), to: target)
        try Self.write(snapshot, as: "sqlite-made-2026-12-07.json")
    }

    @Test func makeThePostgreSQLFixture() async throws {
        try FileManager.default.createDirectory(
            at: Self.fixtures, withIntermediateDirectories: true)
        let cluster = try #require(try PostgreSQLCluster.shared())
        let database = try cluster.createDatabase()
        let store = try PostgreSQLNoteStore(conninfo: database)
        try await Self.fill(store)
        await store.searchIndexer.untilIdle()
        let snapshot = try await StoreSnapshot.take(of: store)
        await store.searchIndexer.untilIdle()
        store.close()
        let dump = Process()
        dump.executableURL = URL(fileURLWithPath: PostgreSQLCluster.binaries + "/pg_dump")
        let target = Self.fixtures.appendingPathComponent("postgresql-made-2026-12-07.sql")
        dump.arguments = [
            "--format=plain", "--no-owner", "--no-privileges", "--file", target.path, database,
        ]
        try dump.run()
        dump.waitUntilExit()
        #expect(dump.terminationStatus == 0)
        try Self.write(snapshot, as: "postgresql-made-2026-12-07.json")
    }
}
