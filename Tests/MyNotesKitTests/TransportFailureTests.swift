import Foundation
import MyNotesKit
import MyNotesTesting
import Testing

/// Server down, silence, hang-ups, timeouts, cancellation and retries, over real sockets.
@Suite("Transport failures, timeouts, cancellation, retry")
struct TransportFailureTests {
    static func client(
        _ url: URL, timeout: Duration = .seconds(5), retry: RetryPolicy = .never,
        method: RequestMethod = .post
    ) -> NotesClient {
        var configuration = NotesClient.Configuration(
            server: url, credentials: .token(email: "a@example.com", token: "t"), language: .english
        )
        configuration.timeout = timeout
        configuration.retry = retry
        configuration.method = method
        return NotesClient(configuration)
    }

    static func failure<Value>(_ call: () async throws(NotesClientError) -> Value) async
        -> NotesClientError?
    {
        do {
            _ = try await call()
            return nil
        } catch {
            return error
        }
    }

    @Test("Server down: a transport failure that says so", arguments: CallingStyle.allCases)
    func serverDown(style: CallingStyle) async {
        let client = Self.client(URL(string: "http://127.0.0.1:\(LoopbackPeer.closedPort())")!)
        let error = await Self.failure { () async throws(NotesClientError) in
            try await style.query(client)
        }
        guard case .transport(.cannotConnect) = error else {
            Issue.record("expected cannotConnect, got \(String(describing: error))")
            return
        }
        #expect(error?.resultCode == nil)
        #expect(error?.message(in: .english) == "Could not connect to the server.")
        #expect(error?.message(in: .chinese) == "无法连接到服务器。")
    }

    @Test("A silent server times out after the configured time", arguments: CallingStyle.allCases)
    func timeout(style: CallingStyle) async {
        let peer = LoopbackPeer(.silent)
        defer { peer.stop() }
        let client = Self.client(peer.url, timeout: .milliseconds(300))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await Self.failure { () async throws(NotesClientError) in
            try await style.add(client, "x", date: NoteDate("2026-01-01")!)
        }
        let elapsed = clock.now - start
        guard case .timedOut = error else {
            Issue.record("expected timedOut, got \(String(describing: error))")
            return
        }
        #expect(elapsed >= .milliseconds(250))
        // Far below URLSession's backstop (timeout + 30 s), with room for a busy machine
        // where the test's own task waits for a thread of the cooperative pool.
        #expect(elapsed < .seconds(15))
    }

    @Test("Task cancellation ends an async call at once")
    func taskCancellation() async {
        let peer = LoopbackPeer(.silent)
        defer { peer.stop() }
        let client = Self.client(peer.url, timeout: .seconds(60))
        let task = Task { () async throws(NotesClientError) in try await client.query() }
        try? await Task.sleep(for: .milliseconds(200))
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        let result = await task.result
        guard case .cancelled? = result.notesError else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        // Far below the 60 s timeout, with room for a busy machine's thread pool.
        #expect(clock.now - start < .seconds(10))
    }

    @Test("A task cancelled before the call sends nothing")
    func cancelledBeforeStart() async {
        let peer = LoopbackPeer(.hangUp)
        defer { peer.stop() }
        let client = Self.client(peer.url)
        let task = Task { () async throws(NotesClientError) in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.query()
        }
        guard case .cancelled? = await task.result.notesError else {
            Issue.record("expected cancelled")
            return
        }
        #expect(peer.connections == 0)
    }

    @Test("The cancel handle ends a callback call; the handler runs once, on its queue")
    func cancelHandle() async {
        let peer = LoopbackPeer(.silent)
        defer { peer.stop() }
        let client = Self.client(peer.url, timeout: .seconds(20))
        let queue = DispatchQueue(label: "caller")
        let calls = Counter()
        let result = await withCheckedContinuation { continuation in
            let request = client.query(on: queue) { result in
                dispatchPrecondition(condition: .onQueue(queue))
                calls.increment()
                continuation.resume(returning: result)
            }
            queue.asyncAfter(deadline: .now() + 0.2) {
                request.cancel()
                request.cancel()
            }
        }
        guard case .failure(.cancelled) = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        try? await Task.sleep(for: .milliseconds(200))
        #expect(calls.value == 1)
    }

    @Test("query retries transient failures with backoff", arguments: CallingStyle.allCases)
    func queryRetries(style: CallingStyle) async {
        let peer = LoopbackPeer(.hangUp)
        defer { peer.stop() }
        let retry = RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(100))
        let client = Self.client(peer.url, retry: retry)
        let clock = ContinuousClock()
        let start = clock.now
        let error = await Self.failure { () async throws(NotesClientError) in
            try await style.query(client)
        }
        guard case .transport = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(peer.connections == 3)
        #expect(clock.now - start >= .milliseconds(300))  // 100 ms, then 200 ms
    }

    @Test("Writes are never retried", arguments: CallingStyle.allCases)
    func writesNotRetried(style: CallingStyle) async {
        let peer = LoopbackPeer(.hangUp)
        defer { peer.stop() }
        let client = Self.client(
            peer.url, retry: RetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(10)))
        _ = await Self.failure { () async throws(NotesClientError) in
            try await style.add(client, "once", date: NoteDate("2026-01-01")!)
        }
        _ = await Self.failure { () async throws(NotesClientError) in
            try await style.modify(client, id: 1, content: "once", date: NoteDate("2026-01-01")!)
        }
        _ = await Self.failure { () async throws(NotesClientError) in
            try await style.remove(client, id: 1)
        }
        #expect(peer.connections == 3)
    }

    @Test("Cancelling during the backoff wait ends the call")
    func cancelDuringBackoff() async {
        let peer = LoopbackPeer(.hangUp)
        defer { peer.stop() }
        let client = Self.client(
            peer.url, retry: RetryPolicy(maxAttempts: 3, initialDelay: .seconds(30)))
        let task = Task { () async throws(NotesClientError) in try await client.query() }
        while peer.connections < 1 { try? await Task.sleep(for: .milliseconds(20)) }
        try? await Task.sleep(for: .milliseconds(200))
        task.cancel()
        guard case .cancelled? = await task.result.notesError else {
            Issue.record("expected cancelled")
            return
        }
        #expect(peer.connections == 1)
    }

    @Test("An HTTP error that is not a protocol answer is reported with its status")
    func httpStatus() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var configuration = NotesClient.Configuration(
            server: server.baseURL.appendingPathComponent("no/such/webservice.php"),
            credentials: .emailOnly("a@example.com"))
        configuration.retry = .never
        let client = NotesClient(configuration)
        let error = await Self.failure { () async throws(NotesClientError) in
            try await client.query()
        }
        guard case .http(let status, _) = error else {
            Issue.record("expected an HTTP failure, got \(String(describing: error))")
            return
        }
        #expect(status == 404)
    }

    @Test("A server URL that is not http is a configuration error")
    func badScheme() async {
        let client = Self.client(URL(string: "ftp://example.com")!)
        let error = await Self.failure { () async throws(NotesClientError) in
            try await client.query()
        }
        guard case .invalidConfiguration = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

extension Result {
    /// The SDK's error, when a task (whose failure type is `any Error`) failed with one.
    var notesError: NotesClientError? {
        if case .failure(let error) = self { return error as? NotesClientError }
        return nil
    }
}
