import Foundation
import Locking
import MyNotesTesting
import Testing

/// The server as a process: ready line, signals, and durability across `kill -9`.
@Suite struct ServeProcessTests {
    func legacyRequest(port: Int, _ query: String) throws -> [String: Any] {
        let client = try RawHTTPClient(port: port)
        let response = try client.send(
            "GET /mynotes/webservice.php?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let object = try JSONSerialization.jsonObject(with: Data(response.body))
        return object as? [String: Any] ?? [:]
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func printsItsURLAndStopsGracefullyOnSignal(signal: Int32) throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let server = try ServerProcess(database: database.location)
        #expect(server.readyLine == "MyNotes server listening on http://127.0.0.1:\(server.port)")
        #expect(
            try RawHTTPClient(port: server.port).send(
                "GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            )
            .status == 404)
        #expect(server.stop(signal: signal) == 0)
        #expect(server.remainingOutput.contains("stopped"))
    }

    @Test func readsHostAndPortFromTheEnvironment() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let result = try CommandRunner.run(
            "mynotes-server", ["--help"],
            environment: ["MYNOTES_PORT": "0", "MYNOTES_HOST": "127.0.0.1"])
        #expect(result.status == 0)
        // An invalid port from the environment is named like the flag.
        let bad = try CommandRunner.run(
            "mynotes-server", ["--database", database.location], environment: ["MYNOTES_PORT": "x"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("'--port'"))
    }

    @Test func warnsWhenLegacyEmailAuthIsOn() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let server = try ServerProcess(
            database: database.location, arguments: ["--legacy-email-auth"])
        server.stop(signal: SIGTERM)
        #expect(server.standardError.contains(" warning --legacy-email-auth is on"))
    }

    @Test func limitsConnectionsFromOneAddressWhenAsked() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let server = try ServerProcess(
            database: database.location,
            arguments: ["--legacy-email-auth", "--max-connections-per-address", "2"])
        defer { server.stop(signal: SIGTERM) }
        let request =
            "GET /mynotes/webservice.php?action=query&email=a@x.org HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let first = try RawHTTPClient(port: server.port)
        let second = try RawHTTPClient(port: server.port)
        #expect(try first.send(request).status == 200)
        #expect(try second.send(request).status == 200)
        // A third connection from the same address is closed without an answer…
        #expect(throws: (any Error).self) { try RawHTTPClient(port: server.port).send(request) }
        // …while the two it holds keep being served.
        #expect(try first.send(request).status == 200)
    }

    @Test func logsJSONLinesWhenAsked() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let server = try ServerProcess(
            database: database.location,
            arguments: ["--legacy-email-auth", "--log-format", "json"])
        server.stop(signal: SIGTERM)
        let lines = server.standardError.split(separator: "\n").map(String.init)
        let objects = try lines.map { line in
            try #require(
                JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
                "not a JSON object: \(line)")
        }
        #expect(
            objects.contains {
                $0["level"] == "warning" && $0["message"]?.hasPrefix("--legacy-email-auth") == true
            })
        #expect(objects.contains { $0["message"] == "server started" && $0["address"] != nil })
        #expect(objects.contains { $0["message"] == "server stopping" })
    }

    @Test func keepsEveryAcknowledgedAddAcrossKill9() async throws {
        // On threads of its own: it blocks while processes answer, and the kill must follow
        // the acknowledgements it waits for at once (from a starved pool it came minutes later,
        // after 72,000 adds that the restart then had to index).
        try await TestThreads.run { _ in
            let database = try TemporaryDatabase()
            defer { database.remove() }
            let added = try await CommandRunner.run(
                "mynotes-server", ["accounts", "add", "a@x.org", "--database", database.location])
            let token = try #require(added.outputLines.last)
            let server = try ServerProcess(
                database: database.location, arguments: ["--threads", "4"])

            // Given four clients adding notes as fast as they can
            let acknowledged = Lock<[String]>([])
            let acks = EventCounter("an acknowledged add")
            let writersEnded = EventCounter("a writer ended")
            let port = server.port
            let writers = (0..<4).map { writer in
                Thread {
                    defer { writersEnded.signal() }
                    var count = 0
                    while let client = try? RawHTTPClient(port: port, timeoutSeconds: 2) {
                        while true {
                            count += 1
                            let request =
                                "GET /mynotes/webservice.php?email=a@x.org&token=\(token)&action=add"
                                + "&date=2026-11-29&content=w\(writer)-\(count) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                            guard let response = try? client.send(request),
                                let object = try? JSONSerialization.jsonObject(
                                    with: Data(response.body)) as? [String: Any],
                                object["ResultCode"] as? Int == 0, let id = object["ID"] as? String
                            else { return }
                            acknowledged.withLock { $0.append(id) }
                            acks.signal()
                        }
                    }
                }
            }
            writers.forEach { $0.start() }
            try await acks.wait(for: 300, timeout: .seconds(60))

            // When the server is killed in the middle of the stream (and every writer has
            // seen it go, so none writes to the restarted server)
            server.stop(signal: SIGKILL)
            try await writersEnded.wait(for: writers.count, timeout: .seconds(30))

            // Then every add answered with ResultCode 0 is there after a restart
            let restarted = try ServerProcess(database: database.location)
            defer { restarted.stop(signal: SIGTERM) }
            let answer = try legacyRequest(
                port: restarted.port, "email=a@x.org&token=\(token)&action=query")
            let stored = Set(
                ((answer["Record"] as? [[String: Any]]) ?? []).compactMap { $0["ID"] as? String })
            let acked = Set(acknowledged.withLock { $0 })
            #expect(acked.count >= 300)
            #expect(acked.isSubset(of: stored))
        }
    }
}
