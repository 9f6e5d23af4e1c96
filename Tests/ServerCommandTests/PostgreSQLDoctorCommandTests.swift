import Foundation
import MyNotesDomain
import MyNotesTesting
import Storage
import Testing

/// `mynotes-server doctor` on a PostgreSQL database: what it finds and its exit status.
@Suite(.postgreSQLInstalled)
struct PostgreSQLDoctorCommandTests {
    let cluster: PostgreSQLCluster

    init() throws {
        cluster = try #require(try PostgreSQLCluster.shared())
    }

    /// A database a server has opened (and so migrated), holding one account.
    private func database() async throws -> String {
        let database = try cluster.createDatabase()
        let store = try StoreLocation.postgreSQL(conninfo: database).open()
        defer { store.close() }
        _ = try await store.createAccount(email: "d@x", tokenHash: nil, passwordHash: nil)
        return database
    }

    /// Notes written straight into the table, behind the servers' backs: the trigger makes
    /// them changes, which wait for an indexer.
    private func insertNotes(_ count: Int, into database: String) throws {
        _ = try cluster.psql(
            """
            INSERT INTO notes (account_id, date, sort_key, content, folded_content, created_at,
                updated_at)
            SELECT id, '2026-12-06', '2026-12-06 00:00:00', 'n', 'n', 0, 0
            FROM accounts, generate_series(1, \(count))
            """, on: database)
    }

    private func doctor(_ database: String) async throws -> CommandRunner.Result {
        try await CommandRunner.run("mynotes-server", ["doctor", "--database", database])
    }

    /// The problem the doctor must report of the test cluster itself: the private one runs
    /// without fsync (PostgreSQLCluster), a server named by MYNOTES_TEST_POSTGRES may not.
    private func durabilityProblems(_ database: String) throws -> Int {
        Int(
            try cluster.psql(
                """
                SELECT (current_setting('fsync') <> 'on'
                    OR current_setting('full_page_writes') <> 'on')::int
                """, on: database
            ).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Exits 1 exactly when there are problems, and says how many.
    private func expectProblems(_ count: Int, in result: CommandRunner.Result) {
        #expect(result.status == (count == 0 ? 0 : 1), "\(result.standardOutput)")
        if count > 0 {
            #expect(
                result.standardError.contains(
                    "\(count) problem\(count == 1 ? "" : "s") found in postgres://"),
                "\(result.standardError)")
        }
    }

    /// Every finding ok but the durability of the private test cluster, which runs without
    /// fsync and is reported so.
    @Test func aDatabaseAServerOpenedIsHealthy() async throws {
        let database = try await database()
        try insertNotes(3, into: database)
        let result = try await doctor(database)
        let durability = try durabilityProblems(database)
        expectProblems(durability, in: result)
        for expected in [
            "ok: connected to PostgreSQL 15",
            durability == 0
                ? "ok: fsync and full_page_writes are on"
                : "problem: fsync and full_page_writes off: writes acknowledged before a crash",
            "ok: schema up to date", "ok: every index is valid",
            "ok: this user may merge the search indexes' pending entries",
            ": the indexes fit",
            "ok: search index: 3 changes of 1 account wait for a server's indexer",
        ] {
            #expect(result.standardOutput.contains(expected), "\(expected)")
        }
        #expect(!result.standardOutput.contains("warning"))
    }

    /// A search index dropped, and another index left invalid by a concurrent build that
    /// failed (a unique index over duplicates), as an interrupted one leaves it.
    @Test func aMissingSearchIndexAndAnInvalidIndexAreProblems() async throws {
        let database = try await database()
        _ = try cluster.psql("DROP INDEX search_chunks_pieces", on: database)
        try insertNotes(2, into: database)
        #expect(
            throws: (any Error).self,
            performing: {
                try cluster.psql(
                    "CREATE UNIQUE INDEX CONCURRENTLY notes_one_a_day ON notes (account_id, date)",
                    on: database)
            })
        let result = try await doctor(database)
        expectProblems(2 + (try durabilityProblems(database)), in: result)
        #expect(
            result.standardOutput.contains(
                "problem: search index search_chunks_pieces is missing"))
        #expect(
            result.standardOutput.contains(
                "problem: index notes_one_a_day is invalid (an interrupted concurrent build)"))
    }

    /// A user who does not own the search indexes cannot merge their pending entries.
    @Test func aUserWhoDoesNotOwnTheIndexesIsWarned() async throws {
        let database = try await database()
        let role = "doctor_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try cluster.psql(
            "CREATE ROLE \(role) LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)",
            on: database)
        defer { _ = try? cluster.psql("DROP OWNED BY \(role); DROP ROLE \(role)", on: database) }
        let result = try await doctor(
            database.replacingOccurrences(of: "postgres@", with: "\(role)@"))
        expectProblems(try durabilityProblems(database), in: result)
        #expect(
            result.standardOutput.contains(
                "warning: this user does not own the search indexes"))
    }

    @Test func aSchemaFromANewerServerIsAProblem() async throws {
        let database = try await database()
        _ = try cluster.psql(
            "INSERT INTO schema_migrations (name, applied_at) VALUES ('from-the-future', 0)",
            on: database)
        let result = try await doctor(database)
        expectProblems(1 + (try durabilityProblems(database)), in: result)
        #expect(
            result.standardOutput.contains(
                "problem: schema has migrations this version does not know (a newer server made it): from-the-future"
            ))
    }

    @Test func aServerThatCannotBeReachedIsAProblem() async throws {
        let closed = ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let result = try await doctor("postgres://postgres@127.0.0.1:\(closed.port)/mynotes")
        #expect(result.status == 1)
        #expect(result.standardOutput.hasPrefix("problem: cannot connect: "))
        #expect(result.standardError.contains("1 problem found"))
    }
}
