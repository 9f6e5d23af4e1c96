import Foundation
import Locking
import MyNotesKit
import MyNotesTesting
import Testing

/// Server down, silence, hang-ups, timeouts, cancellation and retries, over real sockets.
@Suite("Transport failures, timeouts, cancellation, retry")
struct TransportFailureTests {
    static func client(
        _ url: URL, timeout: Duration = .seconds(5), retry: RetryPolicy = .never,
        method: RequestMethod = .post, clock: any Clock<Duration> = ContinuousClock()
    ) -> NotesClient {
        var configuration = NotesClient.Configuration(
            server: url, credentials: .token(email: "a@example.com", token: "t"), language: .english
        )
        configuration.timeout = timeout
        configuration.retry = retry
        configuration.method = method
        configuration.clock = clock
        return NotesClient(configuration)
    }

    /// The task's result, once it has finished; a test failure if that takes past `limit`.
    static func finished<Success>(
        _ task: Task<Success, any Error>, within limit: Duration = .seconds(30)
    ) async throws -> Result<Success, any Error> {
        let done = EventCounter("the call ended")
        Task {
            _ = await task.result
            done.signal()
        }
        try await done.wait(timeout: limit)
        return await task.result
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
        let closed = ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let client = Self.client(closed.url)
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
    func timeout(style: CallingStyle) async throws {
        let peer = LoopbackPeer(.silent)
        defer { peer.stop() }
        let clock = ManualClock()
        let client = Self.client(peer.url, timeout: .milliseconds(300), clock: clock)
        let call = Task {
            await Self.failure { () async throws(NotesClientError) in
                try await style.add(client, "x", date: NoteDate("2026-01-01"))
            }
        }
        // Given the request sent and its attempt timed on the clock,
        try await peer.requests.wait()
        try await clock.waitForSleeper(dueIn: .milliseconds(300))
        // it is still waiting a moment before the timeout,
        clock.advance(by: .milliseconds(299))
        #expect(clock.pendingWaits == [.milliseconds(1)])
        // and fails with timedOut when it comes.
        clock.advance(by: .milliseconds(1))
        let error = await call.value
        guard case .timedOut = error else {
            Issue.record("expected timedOut, got \(String(describing: error))")
            return
        }
    }

    @Test("Task cancellation ends an async call in flight at once")
    func taskCancellation() async throws {
        let peer = LoopbackPeer(.silent)
        defer { peer.stop() }
        // The clock never moves: only the cancellation can end the call.
        let client = Self.client(peer.url, timeout: .seconds(600), clock: ManualClock())
        let task = Task { () async throws(NotesClientError) in try await client.query() }
        try await peer.requests.wait()
        task.cancel()
        let result = try await Self.finished(task)
        guard case .cancelled? = result.notesError else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
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
    func cancelHandle() async throws {
        let peer = LoopbackPeer(.silent)
        defer { peer.stop() }
        let clock = ManualClock()
        // The timeout is far away: URLSession's own backstop (the timeout + 30 s, real time)
        // must not end the call first on a slow machine (it did under AddressSanitizer).
        let client = Self.client(peer.url, timeout: .seconds(3600), clock: clock)
        let queue = DispatchQueue(label: "caller")
        let calls = Counter()
        let finished = EventCounter("the completion handler ran")
        let result = Lock<Result<[Note], NotesClientError>?>(nil)
        let request = client.query(on: queue) { outcome in
            dispatchPrecondition(condition: .onQueue(queue))
            calls.increment()
            result.withLock { $0 = outcome }
            finished.signal()
        }
        // Given the request in flight, when it is cancelled (twice)
        try await peer.requests.wait()
        request.cancel()
        request.cancel()
        // then the handler gets .cancelled
        try await finished.wait()
        guard case .failure(.cancelled)? = result.withLock({ $0 }) else {
            Issue.record("expected cancelled, got \(String(describing: result.withLock { $0 }))")
            return
        }
        // and runs once: the attempt's timer stops when URLSession has reported the
        // cancelled task, the only source of a result, and the queue runs what it was sent.
        try await clock.waitForSleepers(count: 0)
        queue.sync {}
        #expect(calls.value == 1)
    }

    @Test("query retries transient failures with backoff", arguments: CallingStyle.allCases)
    func queryRetries(style: CallingStyle) async throws {
        let peer = LoopbackPeer(.hangUp)
        defer { peer.stop() }
        let clock = ManualClock()
        let retry = RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(100))
        let client = Self.client(peer.url, retry: retry, clock: clock)
        let call = Task {
            await Self.failure { () async throws(NotesClientError) in
                try await style.query(client)
            }
        }
        // 100 ms after the first failure, then 200 ms after the second
        try await clock.waitForSleeper(dueIn: .milliseconds(100))
        #expect(peer.connections == 1)
        clock.advance(by: .milliseconds(100))
        try await clock.waitForSleeper(dueIn: .milliseconds(200))
        #expect(peer.connections == 2)
        clock.advance(by: .milliseconds(200))
        let error = await call.value
        guard case .transport = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(peer.connections == 3)
    }

    @Test("Writes are never retried", arguments: CallingStyle.allCases)
    func writesNotRetried(style: CallingStyle) async {
        let peer = LoopbackPeer(.hangUp)
        defer { peer.stop() }
        let client = Self.client(
            peer.url, retry: RetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(10)))
        _ = await Self.failure { () async throws(NotesClientError) in
            try await style.add(client, "once", date: NoteDate("2026-01-01"))
        }
        _ = await Self.failure { () async throws(NotesClientError) in
            try await style.modify(client, id: 1, content: "once", date: NoteDate("2026-01-01"))
        }
        _ = await Self.failure { () async throws(NotesClientError) in
            try await style.remove(client, id: 1)
        }
        #expect(peer.connections == 3)
    }

    @Test("Cancelling during the backoff wait ends the call")
    func cancelDuringBackoff() async throws {
        let peer = LoopbackPeer(.hangUp)
        defer { peer.stop() }
        let clock = ManualClock()
        let client = Self.client(
            peer.url,
            retry: RetryPolicy(maxAttempts: 3, initialDelay: .seconds(30), maxDelay: .seconds(30)),
            clock: clock)
        let task = Task { () async throws(NotesClientError) in try await client.query() }
        try await clock.waitForSleeper(dueIn: .seconds(30))
        task.cancel()
        guard case .cancelled? = try await Self.finished(task).notesError else {
            Issue.record("expected cancelled")
            return
        }
        #expect(peer.connections == 1)
        // and the wait itself has ended, not just been forgotten.
        try await clock.waitForSleepers(count: 0)
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
