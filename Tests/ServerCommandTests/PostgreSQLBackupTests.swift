import Foundation
import MyNotesTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// docs/OPERATIONS.md's PostgreSQL backup, as an operator runs it: `pg_dump` of a database
/// a server is writing to, `pg_restore` into a fresh database, and a server on the restored
/// one answers every note and session acknowledged before the dump.
@Suite(.postgreSQLInstalled)
struct PostgreSQLBackupTests {
    static func run(_ program: String, _ arguments: [String]) throws {
        let result = try CommandRunner.run(
            executable: URL(fileURLWithPath: "\(PostgreSQLCluster.binaries)/\(program)"),
            arguments)
        guard result.status == 0 else {
            throw PostgreSQLClusterError("\(program) failed: \(result.standardError)")
        }
    }

    @Test func aDumpRestoredIntoAFreshDatabaseIsServed() throws {
        let cluster = try PostgreSQLCluster.startPrivate()
        defer { try? cluster.stop() }
        let source = try cluster.createDatabase()
        let server = try ServerProcess(
            database: source, arguments: ["--auth-rate-limits", "unlimited"])
        defer { server.stop(signal: SIGTERM) }
        let client = InstanceClient(port: server.port)
        let token = try client.signUp("ann@example.com")
        let acknowledged = (1...5).compactMap { index in
            client.legacyAnswer(
                email: "ann@example.com", token: token, content: "note\(index)",
                date: "2026-12-0\(index)"
            ).id
        }
        #expect(acknowledged.count == 5)

        // Dumped while the server runs, as the docs say.
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("mynotes-pgdump-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = folder.appendingPathComponent("mynotes.dump").path
        try Self.run("pg_dump", ["--format=custom", "--file=\(dump)", source])
        let target = try cluster.createDatabase()
        try Self.run("pg_restore", ["--no-owner", "--dbname=\(target)", dump])

        let restored = try ServerProcess(
            database: target, arguments: ["--auth-rate-limits", "unlimited"])
        defer { restored.stop(signal: SIGTERM) }
        let notes = try InstanceClient(port: restored.port).allNotes(token: token, limit: 2)
        #expect(Set(notes.compactMap { ($0["id"] as? Int).map(String.init) }) == Set(acknowledged))
        #expect(
            notes.compactMap { $0["content"] as? String }
                == ["note5", "note4", "note3", "note2", "note1"])
    }
}
