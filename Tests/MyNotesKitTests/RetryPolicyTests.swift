import Foundation
import MyNotesKit
import MyNotesProtocol
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("RetryPolicy")
struct RetryPolicyTests {
    @Test("Backoff grows by the multiplier up to the cap")
    func backoff() {
        let policy = RetryPolicy(
            maxAttempts: 6, initialDelay: .milliseconds(100), multiplier: 2,
            maxDelay: .milliseconds(500))
        #expect(
            (1...5).map { policy.delay(afterAttempt: $0) } == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500),
                .milliseconds(500),
            ])
        #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
    }

    @Test(
        "Only failures of the network or the server's store are worth another attempt",
        arguments: [
            (NotesClientError.transport(.cannotConnect(URLError(.cannotConnectToHost))), true),
            (.transport(.connectionLost(URLError(.networkConnectionLost))), true),
            (.timedOut, true),
            (.http(status: 503, body: ""), true),
            (.http(status: 429, body: ""), true),
            (.server(.dataAccessFailed, serverMessage: nil), true),
            (.http(status: 404, body: ""), false),
            (.http(status: 413, body: ""), false),
            (.cancelled, false),
            (.server(.authenticationFailed, serverMessage: nil), false),
            (.server(.noSuchNote, serverMessage: nil), false),
            (.invalidResponse(.invalidDate("x")), false),
        ])
    func transient(error: NotesClientError, expected: Bool) {
        #expect(RetryPolicy.isTransient(error) == expected)
    }
}
