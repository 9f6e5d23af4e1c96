import Foundation
import MyNotesKit
import MyNotesTesting
import Testing

/// Retries of NotesAPIClient against a peer that always answers with a problem.
@Suite("NotesAPIClient retries and Retry-After")
struct RESTRetryTests {
    static func peer(status: String, retryAfter: String? = nil) -> LoopbackPeer {
        let body =
            #"{"type":"about:blank","title":"T","status":\#(status.prefix(3)),"code":\#(status.prefix(3)),"detail":"Wait."}"#
        var head = "HTTP/1.1 \(status)\r\nContent-Type: application/problem+json\r\n"
        if let retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return LoopbackPeer(.answer(head + body))
    }

    static func client(
        _ peer: LoopbackPeer, maxDelay: Duration = .seconds(5),
        clock: any Clock<Duration> = ContinuousClock()
    ) -> NotesAPIClient {
        var configuration = NotesAPIClient.Configuration(
            server: peer.url, token: "t", language: .english)
        configuration.timeout = .seconds(10)
        configuration.clock = clock
        configuration.retry = RetryPolicy(
            maxAttempts: 2, initialDelay: .milliseconds(10), maxDelay: maxDelay)
        return NotesAPIClient(configuration)
    }

    @Test(
        "A read waits the Retry-After of a 429 before its retry", arguments: CallingStyle.allCases)
    func honoursRetryAfter(style: CallingStyle) async throws {
        let peer = Self.peer(status: "429 Too Many Requests", retryAfter: "1")
        defer { peer.stop() }
        let clock = ManualClock()
        let client = Self.client(peer, clock: clock)
        let call = Task {
            await TransportFailureTests.failure { () async throws(NotesClientError) in
                try await style.notes(client)
            }
        }
        // The retry waits the server's second, not the policy's 10 ms.
        try await clock.waitForSleeper(dueIn: .seconds(1))
        #expect(peer.connections == 1)
        clock.advance(by: .seconds(1))
        let error = await call.value
        #expect(peer.connections == 2)
        guard case .rest(.tooManyRequests(let problem, .seconds(1))) = error else {
            Issue.record("expected 429, got \(String(describing: error))")
            return
        }
        #expect(problem.detail == "Wait.")
    }

    @Test("A Retry-After beyond the policy's longest wait ends the retries at once")
    func longRetryAfter() async {
        let peer = Self.peer(status: "429 Too Many Requests", retryAfter: "120")
        defer { peer.stop() }
        let error = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await Self.client(peer, maxDelay: .seconds(5)).note(id: 1)
        }
        #expect(peer.connections == 1)
        #expect(error?.retryAfter == .seconds(120))
    }

    @Test("A 5xx problem: reads are retried, writes never", arguments: CallingStyle.allCases)
    func serverErrors(style: CallingStyle) async {
        let peer = Self.peer(status: "503 Service Unavailable")
        defer { peer.stop() }
        let client = Self.client(peer)
        let read = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await style.allNotes(client)
        }
        guard case .rest(.other(let problem)) = read else {
            Issue.record("expected a 503 problem, got \(String(describing: read))")
            return
        }
        #expect(problem.status == 503)
        #expect(peer.connections == 2)
        _ = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await style.create(client, "once")
        }
        #expect(peer.connections == 3)
    }
}
