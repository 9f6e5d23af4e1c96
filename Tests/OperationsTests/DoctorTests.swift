import Foundation
import MyNotesDomain
import MyNotesTesting
import SQLiteStore
import Testing

/// `mynotes-server doctor`: what it finds and its exit status.
@Suite struct DoctorTests {
    func makeDatabase(_ fixture: OperationsFixture) throws {
        let store = try SQLiteNoteStore(path: fixture.databasePath)
        store.close()
        #expect(chmod(fixture.databasePath, 0o600) == 0)
    }

    func doctor(_ fixture: OperationsFixture) throws -> CommandRunner.Result {
        try CommandRunner.run("mynotes-server", ["doctor", "--database", fixture.location])
    }

    @Test func aHealthyDatabasePasses() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        try makeDatabase(fixture)
        let result = try doctor(fixture)
        #expect(result.status == 0, "\(result.standardOutput)")
        for expected in [
            "ok: integrity_check passed", "ok: schema up to date", "ok: journal_mode is wal",
            "ok: permissions 600", "MiB free beside the database",
        ] {
            #expect(result.standardOutput.contains(expected), "\(expected)")
        }
    }

    @Test func aDatabaseEveryoneCanReadIsAProblem() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        try makeDatabase(fixture)
        #expect(chmod(fixture.databasePath, 0o644) == 0)
        let result = try doctor(fixture)
        #expect(result.status == 1)
        #expect(
            result.standardOutput.contains(
                "problem: \(fixture.databasePath) is accessible to every user"))
        #expect(result.standardError.contains("1 problem found"))
    }

    @Test func aSchemaFromANewerServerIsAProblem() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        try makeDatabase(fixture)
        let insert = try Tools.run(
            "python3",
            [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO schema_migrations(name, applied_at) VALUES ('from-the-future', 0)\"); c.commit()",
                fixture.databasePath,
            ])
        try #require(insert.status == 0, "\(insert.standardError)")
        let result = try doctor(fixture)
        #expect(result.status == 1)
        #expect(
            result.standardOutput.contains(
                "does not know (a newer server made it): from-the-future"))
    }

    @Test func aDamagedFileIsAProblem() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        try makeDatabase(fixture)
        // Overwrite a page of the file (past the header): SQLite finds it when it reads.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fixture.databasePath))
        try handle.seek(toOffset: 4096 + 8)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 2048))
        try handle.close()
        let result = try doctor(fixture)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("problem: "))
    }

    @Test func aMissingDatabaseIsAProblem() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let result = try doctor(fixture)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("does not exist"))
    }
}
