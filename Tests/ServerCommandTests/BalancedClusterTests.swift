import Dispatch
import Foundation
import MyNotesTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two servers on one PostgreSQL database behind haproxy, as `scripts/serve-cluster.sh`
/// runs them: one killed with `kill -9` in the middle of a stream of adds.
@Suite(
    .enabled(
        if: PostgreSQLCluster.isAvailable && LoadBalancerProcess.unavailableReason == nil,
        "PostgreSQL or haproxy is not installed: scripts/install-deps.sh --with-postgresql installs both"
    ))
struct BalancedClusterTests {
    @Test func killingOneServerLosesNoAcknowledgedAddAndTheOtherKeepsServing() throws {
        let (a, b, _) = try TwoInstanceTests.pair()
        defer { b.stop(signal: SIGTERM) }
        let balancer = try LoadBalancerProcess(servers: [a.port, b.port])
        defer { balancer.stop() }
        let through = InstanceClient(port: balancer.port)
        let token = try through.signUp("ann@example.com")

        struct Stream {
            var acknowledged: [String] = []
            var afterKill = 0
            var killed = false
            var failures = 0
        }
        let stream = Mutex(Stream())
        let victim = a.process.processIdentifier
        let deadline = ContinuousClock.now + .seconds(90)
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            var index = 0
            while ContinuousClock.now < deadline {
                if stream.withLock({ $0.afterKill >= 150 }) { return }
                index += 1
                let id = through.legacyAdd(
                    email: "ann@example.com", token: token, content: "w\(worker)n\(index)",
                    date: "2026-12-01")
                let kill = stream.withLock { state -> Bool in
                    guard let id else {
                        state.failures += 1
                        return false
                    }
                    state.acknowledged.append(id)
                    if state.killed { state.afterKill += 1 }
                    guard !state.killed, state.acknowledged.count >= 150 else { return false }
                    state.killed = true
                    return true
                }
                if kill { Glibc.kill(victim, SIGKILL) }
            }
        }
        let result = stream.withLock { $0 }
        #expect(result.killed)
        // The other server kept serving: 150 adds acknowledged after the kill, in time.
        #expect(result.afterKill >= 150)
        // Every acknowledged add is there, read from the server that lived.
        let stored = Set(
            try InstanceClient(port: b.port).allNotes(token: token, limit: 100)
                .compactMap { ($0["id"] as? Int).map(String.init) })
        let missing = Set(result.acknowledged).subtracting(stored)
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.sorted())")
        #expect(Set(result.acknowledged).count == result.acknowledged.count)
    }
}
