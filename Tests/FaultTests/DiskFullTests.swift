import Foundation
import MyNotesTesting
import Testing

/// The disk fills up under a stream of adds: the database lives on a 4 MiB tmpfs (each
/// note also takes room in the search index), two clients add
/// 2 KB notes until the adds fail, then the tmpfs grows.
@Suite(.enabled(if: TmpfsMount.unavailable == nil, "\(TmpfsMount.unavailable ?? "")"))
struct DiskFullTests {
    @Test func failedAddsAreAbsentAcknowledgedOnesPresentAndWritesRecover() async throws {
        // On threads of its own (see `FaultRig`).
        try await TestThreads.run { _ in
            let disk = try TmpfsMount(kibibytes: 4_096)
            defer { disk.unmount() }
            let rig = try FaultRig(folder: disk.folder.appendingPathComponent("data"))
            let server = try rig.start()

            // Given clients adding notes until the disk is full and a run of adds has failed
            let stream = AddStream(
                port: server.port, email: rig.email, token: rig.token, padding: 2_000)
            try await stream.refusals.wait(for: 20, timeout: .seconds(60))
            try await stream.stop()
            let outcomes = stream.results
            #expect(outcomes.acknowledged.count >= 50, "the disk filled before any real load")
            // Each failure is the protocol's data-access failure, not a crash or a hang.
            #expect(Set(outcomes.refused.values) == [-3])

            // Then reads keep working and show exactly the acknowledged adds
            let whileFull = try rig.query(port: server.port).get()
            #expect(outcomes.acknowledged.isSubset(of: whileFull))
            #expect(whileFull.isDisjoint(with: outcomes.refused.keys))

            // And once there is room again, the next add succeeds
            try disk.resize(kibibytes: 16 * 1_024)
            // A minute: in a parallel run this server shares two cores with every other suite.
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 60)
            let afterwards = rig.add("after-the-disk-grew", on: client, port: server.port)
            #expect(afterwards.code == 0, "\(afterwards)")
            #expect(try rig.query(port: server.port).get().contains("after-the-disk-grew"))
            #expect(server.stop(signal: SIGTERM) == 0)
            if afterwards.code != 0 { Issue.record("the server's log:\n\(server.standardError)") }

            // And the file holds the acknowledged adds, none of the failed ones, and is sound
            let stored = try await rig.inspect()
            #expect(stored.integrity == ["ok"])
            #expect(outcomes.acknowledged.isSubset(of: stored.contents))
            #expect(stored.contents.isDisjoint(with: outcomes.refused.keys))
        }
    }
}
