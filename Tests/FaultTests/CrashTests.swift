import Foundation
import MyNotesTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server process killed or frozen in the middle of a stream of adds: no acknowledged
/// add may be lost, and the database must stay sound.
@Suite struct CrashTests {
    /// Twenty rounds on one database: start, add from two clients, `kill -9` after a
    /// number of acknowledgements that changes from round to round, then look at the
    /// file. Not one acknowledged add is lost, and the file is sound every time.
    @Test func twentyKill9sLoseNoAcknowledgedAdd() async throws {
        // On threads of its own (see `FaultRig`).
        try await TestThreads.run { _ in
            let rig = try FaultRig(folder: FaultRig.temporaryFolder())
            defer { rig.remove() }
            var acknowledged = Set<String>()
            for round in 0..<20 {
                let server = try rig.start()
                let stream = AddStream(
                    port: server.port, email: rig.email, token: rig.token, tag: "r\(round)w")
                try await stream.acks.wait(for: 10 + (round * 13) % 40, timeout: .seconds(60))
                server.stop(signal: SIGKILL)
                try await stream.ended.wait(for: stream.writers, timeout: .seconds(30))
                acknowledged.formUnion(stream.results.acknowledged)

                let stored = try await rig.inspect()
                #expect(stored.integrity == ["ok"], "round \(round)")
                let lost = acknowledged.subtracting(stored.contents)
                #expect(lost.isEmpty, "round \(round) lost \(lost.count) acknowledged adds")
            }
            #expect(acknowledged.count >= 20 * 10)
        }
    }

    /// SIGSTOP freezes the server with requests in flight and one more waiting to be
    /// accepted; after SIGCONT it answers them and goes on.
    @Test func sigstopThenSigcontRecovers() async throws {
        // On threads of its own (see `FaultRig`).
        try await TestThreads.run { _ in
            let rig = try FaultRig(folder: FaultRig.temporaryFolder())
            defer { rig.remove() }
            let server = try rig.start()
            let pid = server.process.processIdentifier
            let stream = AddStream(port: server.port, email: rig.email, token: rig.token)
            try await stream.acks.wait(for: 50, timeout: .seconds(60))

            kill(pid, SIGSTOP)
            try Poll.until("the server stopped") { try Self.state(of: pid) == "T" }
            let atStop = stream.acks.value
            // A client that connects now waits in the listen backlog.
            let latecomer = try RawHTTPClient(port: server.port, timeoutSeconds: 30)
            kill(pid, SIGCONT)

            let late = rig.add("sent-while-stopped", on: latecomer, port: server.port)
            #expect(late.code == 0, "\(late)")
            try await stream.acks.wait(for: atStop + 50, timeout: .seconds(30))
            try await stream.stop()
            let listed = try rig.query(port: server.port).get()
            #expect(stream.results.acknowledged.isSubset(of: listed))
            #expect(listed.contains("sent-while-stopped"))
            #expect(server.stop(signal: SIGTERM) == 0)
            #expect(try await rig.inspect().integrity == ["ok"])
        }
    }

    /// The process state letter from `/proc/PID/stat` ("R", "S", "T" for stopped …).
    static func state(of pid: Int32) throws -> String {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name in parentheses may hold spaces; the state follows it.
        guard let close = stat.lastIndex(of: ")") else { return "" }
        return String(stat[close...].dropFirst(2).prefix(1))
    }
}
