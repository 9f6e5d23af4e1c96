import Dispatch
import Foundation
import Locking
import MyNotesTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// PostgreSQL restarted under a server that is being queried and written to: the requests
/// of that window fail cleanly (-3, with 503 while the database is unreachable), nothing
/// acknowledged is lost, and the server serves again by itself once the database is back.
@Suite(.postgreSQLInstalled)
struct DatabaseRestartTests {
    @Test func aRestartedDatabaseFailsRequestsCleanlyAndIsUsedAgain() throws {
        let cluster = try PostgreSQLCluster.startPrivate()
        defer { try? cluster.stop() }
        let server = try ServerProcess(
            database: try cluster.createDatabase(),
            arguments: ["--auth-rate-limits", "unlimited", "--db-pool", "4"])
        defer { server.stop(signal: SIGTERM) }
        let client = InstanceClient(port: server.port)
        let token = try client.signUp("ann@example.com")

        struct Seen {
            var acknowledged: [String] = []
            var answers: [String: Int] = [:]
            var stop = false
        }
        let seen = Lock(Seen())
        let writer = Thread {
            var index = 0
            while !seen.withLock({ $0.stop }) {
                index += 1
                let answer = client.legacyAnswer(
                    email: "ann@example.com", token: token, content: "n\(index)",
                    date: "2026-12-01")
                seen.withLock { state in
                    state.answers[answer.kind, default: 0] += 1
                    if let id = answer.id { state.acknowledged.append(id) }
                }
            }
        }
        writer.start()
        try Poll.until("20 acknowledged adds before the restart", timeout: .seconds(60)) {
            seen.withLock { $0.acknowledged.count >= 20 }
        }
        try cluster.stopServer()
        try Poll.until("an add refused while the database is down", timeout: .seconds(60)) {
            seen.withLock { $0.answers.keys.contains { $0 != "0" } }
        }
        try cluster.startServer()
        let before = seen.withLock { $0.acknowledged.count }
        try Poll.until("20 more acknowledged adds after the restart", timeout: .seconds(60)) {
            seen.withLock { $0.acknowledged.count >= before + 20 }
        }
        seen.withLock { $0.stop = true }
        try Poll.until("the writer to stop", timeout: .seconds(30)) { writer.isFinished }
        let result = seen.withLock { $0 }
        // Only successes and clean refusals: -3 as 503 (unreachable) or 200 (a write whose
        // connection died with it), never a hang, a dropped connection or another code.
        #expect(
            Set(result.answers.keys).isSubset(of: ["0", "-3/503", "-3/200"]), "\(result.answers)")
        let stored = Set(
            try client.allNotes(token: token, limit: 100).compactMap {
                ($0["id"] as? Int).map(String.init)
            })
        #expect(Set(result.acknowledged).subtracting(stored).isEmpty)
    }
}
