import Foundation
import MyNotesTesting
import Testing

/// The storage quota on the real server: with open sign-up and no quota, two
/// connections once wrote 48 MB/s of notes.
@Suite struct QuotaProcessTests {
    /// Two connections adding 1 KB notes as fast as they can against a 100 KB limit:
    /// both get -2 once it is reached, and the account holds no byte past it.
    @Test func twoFastWritersStopAtTheByteLimit() async throws {
        // On threads of its own (see `FaultRig`).
        try await TestThreads.run { _ in
            let rig = try FaultRig(folder: FaultRig.temporaryFolder())
            defer { rig.remove() }
            let limit = 100_000
            let server = try rig.start(["--quota", "0", "--quota-bytes", "\(limit)"])
            let stream = AddStream(
                port: server.port, email: rig.email, token: rig.token, padding: 1_000)
            try await stream.refusals.wait(for: 20, timeout: .seconds(60))
            try await stream.stop()
            let outcomes = stream.results
            #expect(Set(outcomes.refused.values) == [-2])
            #expect(Set(outcomes.refused.keys.map { $0.prefix(3) }) == ["n0-", "n1-"])

            let stored = try rig.query(port: server.port).get()
            #expect(stored == outcomes.acknowledged)
            let bytes = stored.reduce(0) { $0 + $1.utf8.count }
            #expect(bytes <= limit)
            // Every refused note would have passed the limit, even on the final total.
            #expect(outcomes.refused.keys.allSatisfy { bytes + $0.utf8.count > limit })

            // REST says the same with 403 and the protocol's code.
            let client = try RawHTTPClient(port: server.port)
            let body = #"{"content": "\#(String(repeating: "y", count: 2_000))"}"#
            let response = try client.send(
                "POST /api/v1/notes HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                    + "Authorization: Bearer \(rig.token)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(response.status == 403)
            let problem =
                try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(problem?["code"] as? Int == -2)
            #expect((problem?["detail"] as? String)?.contains("\(limit) bytes") == true)
            #expect(server.stop(signal: SIGTERM) == 0)
        }
    }

    /// `serve` limits accounts by default (its help names the defaults); each flag sets
    /// its own limit, and the other keeps its default.
    @Test(arguments: [
        (["--quota", "1"], "1234567890"), (["--quota-bytes", "15"], "1234567890123456"),
    ])
    func eachLimitHasItsFlag(flag: [String], secondNote: String) throws {
        let help = try CommandRunner.run("mynotes-server", ["help", "serve"])
        #expect(help.standardOutput.contains("(default 100000)"))
        #expect(help.standardOutput.contains("(default 104857600: 100 MiB)"))
        let rig = try FaultRig(folder: FaultRig.temporaryFolder())
        defer { rig.remove() }
        let server = try rig.start(flag)
        defer { server.stop(signal: SIGTERM) }
        let client = try RawHTTPClient(port: server.port)
        func add(_ content: String) -> Int? { rig.add(content, on: client, port: server.port).code }
        #expect(add("first") == 0)
        #expect(add(secondNote) == -2)
        #expect(add(secondNote) == -2)
        #expect(try rig.query(port: server.port).get() == ["first"])
    }
}
