import Dispatch
import Foundation
import Locking
import MyNotesTesting
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
        let stream = Lock(Stream())
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

    /// The balancer checks `/readyz`, which a server answers 503 while it drains: one given
    /// SIGTERM with a drain delay is taken out within a few checks, long before it stops,
    /// and the requests go to the other one.
    @Test func aDrainingServerGetsNoMoreRequestsFromTheBalancer() throws {
        let cluster = try #require(try PostgreSQLCluster.shared())
        let database = try cluster.createDatabase()
        let metricsPort = try PostgreSQLCluster.freePort()
        let draining = try ServerProcess(
            database: database,
            arguments: [
                "--db-pool", "2", "--drain-delay", "60", "--metrics-listen",
                "127.0.0.1:\(metricsPort)",
            ])
        defer { draining.stop(signal: SIGKILL) }
        let other = try ServerProcess(database: database, arguments: ["--db-pool", "2"])
        defer { other.stop(signal: SIGTERM) }
        let balancer = try LoadBalancerProcess(servers: [draining.port, other.port])
        defer { balancer.stop() }
        let through = InstanceClient(port: balancer.port)
        /// Requests for the OpenAPI document the draining server has answered.
        func servedByTheDrainingOne() throws -> Int {
            let answer = try RawHTTPClient(port: metricsPort).send(
                Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            return String(decoding: answer.body, as: UTF8.self).split(separator: "\n")
                .filter { $0.hasPrefix("mynotes_http_requests_total{") && $0.contains("openapi") }
                .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
                .reduce(0, +)
        }
        // Round robin: both serve.
        for _ in 0..<6 {
            #expect(try through.send("GET", "/api/v1/openapi.json").status == 200)
        }
        #expect(try servedByTheDrainingOne() > 0)

        kill(draining.process.processIdentifier, SIGTERM)
        // Out once 20 requests in a row went elsewhere; it keeps serving for 60 s, so
        // without the readiness check it would keep getting every other one.
        try Poll.until("the draining server out of the balancer", timeout: .seconds(20)) {
            let before = try servedByTheDrainingOne()
            for _ in 0..<20 {
                #expect(try through.send("GET", "/api/v1/openapi.json").status == 200)
            }
            return try servedByTheDrainingOne() == before
        }
        #expect(draining.process.isRunning)
    }
}
