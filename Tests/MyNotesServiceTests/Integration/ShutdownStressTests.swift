import Foundation
import MyNotesTesting
import Testing

/// Shutting the server down while clients are connected must never crash the process.
///
/// It guards the shutdown path: stopping the earlier server's listener once aborted the
/// process at random here, so shutdown refuses new connections at accept instead. A short
/// run is part of the suite; `MYNOTES_STRESS_SHUTDOWN=1` runs 1,000 servers (minutes).
@Suite("Shutdown under load")
struct ShutdownStressTests {
    static let rounds =
        ProcessInfo.processInfo.environment["MYNOTES_STRESS_SHUTDOWN"] == nil ? 20 : 1_000

    @Test("Many servers shut down with busy keep-alive connections")
    func shutdownWhileConnected() throws {
        for _ in 0..<Self.rounds {
            let server = try TestServer(.init(auth: .legacyEmail, threads: 2))
            let clients = try (0..<4).map { _ in try RawHTTPClient(port: server.port) }
            for client in clients {
                _ = client.write(
                    "GET /mynotes/webservice.php?action=query&email=a@example.com HTTP/1.1\r\nHost: t\r\n\r\n"
                )
            }
            server.shutdown()
        }
    }
}
