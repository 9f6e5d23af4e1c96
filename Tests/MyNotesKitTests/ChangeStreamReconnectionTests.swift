import Testing

@testable import MyNotesKit

/// How long a change stream waits before reconnecting.
@Suite("Change stream reconnection waits")
struct ChangeStreamReconnectionTests {
    @Test(
        "The server's retry: after a drop, doubling per failed attempt, up to the maximum",
        arguments: [
            (0, 3_000), (1, 3_000), (2, 6_000), (3, 12_000), (5, 48_000), (6, 60_000), (40, 60_000),
        ])
    func serverHint(failures: Int, milliseconds: Int) {
        let wait = ChangeStream.Reconnection.standard.wait(
            serverHint: .seconds(3), failures: failures)
        #expect(wait == .milliseconds(milliseconds))
    }

    @Test("A fixed delay replaces the server's hint, and still grows and stops at the maximum")
    func fixed() {
        let policy = ChangeStream.Reconnection(delay: .milliseconds(100), maxDelay: .seconds(1))
        #expect(policy.wait(serverHint: .seconds(3), failures: 0) == .milliseconds(100))
        #expect(policy.wait(serverHint: .seconds(3), failures: 3) == .milliseconds(400))
        #expect(policy.wait(serverHint: .seconds(3), failures: 9) == .seconds(1))
    }
}
