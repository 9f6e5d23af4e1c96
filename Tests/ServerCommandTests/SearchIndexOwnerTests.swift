import Foundation
import MyNotesTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A server whose PostgreSQL user does not own the search indexes cannot merge their
/// pending entries (`gin_clean_pending_list`): it still serves, and says so as it starts,
/// since nothing fails and searches only slow down.
@Suite(.postgreSQLInstalled)
struct SearchIndexOwnerTests {
    @Test func aServerThatCannotMergeThePendingEntriesSaysSoAsItStarts() throws {
        let cluster = try #require(try PostgreSQLCluster.shared())
        let database = try cluster.createDatabase()
        let warning = " warning the database user does not own the search indexes"
        let owner = try ServerProcess(database: database)
        owner.stop(signal: SIGTERM)
        #expect(!owner.standardError.contains(warning), "\(owner.standardError)")

        let role = "mynotes_app_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try cluster.psql(
            """
            CREATE ROLE \(role) LOGIN;
            GRANT USAGE, CREATE ON SCHEMA public TO \(role);
            GRANT ALL ON ALL TABLES IN SCHEMA public TO \(role);
            GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO \(role);
            """, on: database)
        defer { _ = try? cluster.psql("DROP OWNED BY \(role); DROP ROLE \(role)", on: database) }
        let other = try ServerProcess(
            database: database.replacingOccurrences(of: "postgres@", with: "\(role)@"),
            arguments: ["--auth-rate-limits", "unlimited"])
        let client = InstanceClient(port: other.port)
        let token = try client.signUp("ann@example.com")
        let added = try client.send(
            "POST", "/api/v1/notes", token: token, json: ["content": "会议 at noon"])
        let found = try client.send("GET", "/api/v1/notes?q=%E4%BC%9A%E8%AE%AE", token: token)
        other.stop(signal: SIGTERM)
        #expect(added.status == 201)
        #expect((found.json["notes"] as? [[String: Any]])?.count == 1)
        #expect(other.standardError.contains(warning), "\(other.standardError)")
    }

    /// The check that warns must not keep a server from starting: without the indexes
    /// (what `benchmarks/search-postgresql.sh` does to time adds without them) it serves,
    /// and warns of nothing.
    @Test func aServerStartsWithoutTheSearchIndexes() throws {
        let cluster = try #require(try PostgreSQLCluster.shared())
        let database = try cluster.createDatabase()
        try ServerProcess(database: database).stop(signal: SIGTERM)
        _ = try cluster.psql(
            "DROP INDEX search_chunks_pieces, search_chunks_triples, search_chunks_fives",
            on: database)
        let server = try ServerProcess(
            database: database, arguments: ["--auth-rate-limits", "unlimited"])
        let token = try InstanceClient(port: server.port).signUp("ann@example.com")
        server.stop(signal: SIGTERM)
        #expect(!token.isEmpty)
        #expect(!server.standardError.contains(" warning "), "\(server.standardError)")
    }
}
