import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one engine behind ``NotesClient`` and ``NotesAPIClient`` and their three calling
/// styles: it sends requests, times each attempt, retries, cancels, and maps transport
/// failures, so both clients fail, time out and cancel the same way.
///
/// Attempt timeouts and retry waits run on `clock`, so tests can advance time
/// instead of waiting for it.
final class RequestEngine: Sendable {
    let server: URL
    let timeout: Duration
    let clock: any Clock<Duration>
    private let session: URLSession

    init(server: URL, timeout: Duration, clock: any Clock<Duration>) {
        self.server = server
        self.timeout = timeout
        self.clock = clock
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // The engine's own timer reports timeouts, the same on every platform; URLSession's
        // (an idle timeout, not a total one) is only a backstop, far enough not to race it.
        sessionConfiguration.timeoutIntervalForRequest = Self.backstop(timeout)
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        session = URLSession(configuration: sessionConfiguration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// URLSession's own timeout for a request: far behind the engine's timer.
    static func backstop(_ timeout: Duration) -> TimeInterval {
        timeout.seconds + 30
    }

    // MARK: - The three calling styles

    /// async/await: cancelling the Task cancels the call at once.
    func run<Value: Sendable>(_ operation: NotesOperation<Value>) async throws(NotesClientError)
        -> Value
    {
        let handle = NotesRequest()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                perform(operation, handle: handle) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            handle.cancel()
        }
        return try result.get()
    }

    /// Completion handler: runs once on `queue`; the handle cancels.
    func start<Value: Sendable>(
        _ operation: NotesOperation<Value>, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Value, NotesClientError>) -> Void
    ) -> NotesRequest {
        let handle = NotesRequest()
        perform(operation, handle: handle) { result in queue.async { completion(result) } }
        return handle
    }

    /// Blocking: waits on the calling thread.
    func wait<Value: Sendable>(_ operation: NotesOperation<Value>) throws(NotesClientError) -> Value
    {
        let box = ResultBox<Value>()
        let semaphore = DispatchSemaphore(value: 0)
        perform(operation, handle: NotesRequest()) { result in
            box.set(result)
            semaphore.signal()
        }
        semaphore.wait()
        return try box.get().get()
    }

    func perform<Value: Sendable>(
        _ operation: NotesOperation<Value>, handle: NotesRequest,
        completion: @escaping @Sendable (Result<Value, NotesClientError>) -> Void
    ) {
        guard let scheme = server.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            completion(.failure(.invalidConfiguration("the server URL must be http or https")))
            return
        }
        operation.start(self, handle, completion)
    }

    // MARK: - One exchange

    /// Sends `request` and decodes the answer, trying again while `retry` allows and the
    /// failure is transient (``RetryPolicy/isTransient(_:)``), never sooner than a
    /// `Retry-After` the server asked for.
    func exchange<Value: Sendable>(
        _ request: URLRequest, retry: RetryPolicy, attempt number: Int = 1, handle: NotesRequest,
        decode: @escaping @Sendable (HTTPAnswer) throws(NotesClientError) -> Value,
        completion: @escaping @Sendable (Result<Value, NotesClientError>) -> Void
    ) {
        let timer = AttemptTimer()
        let task = session.dataTask(with: request) { data, response, error in
            timer.cancel()
            let result = Self.interpret(
                data: data, response: response, error: error, timedOut: timer.fired
            ).flatMap { answer in Result { () throws(NotesClientError) in try decode(answer) } }
            guard case .failure(let failure) = result, number < retry.maxAttempts,
                RetryPolicy.isTransient(failure)
            else {
                completion(result)
                return
            }
            var delay = retry.delay(afterAttempt: number)
            if let asked = failure.retryAfter {
                guard asked <= retry.maxDelay else {
                    completion(result)
                    return
                }
                delay = max(delay, asked)
            }
            let scheduled = handle.scheduleRetry(
                after: delay, on: self.clock, onCancel: { completion(.failure(.cancelled)) }
            ) {
                self.exchange(
                    request, retry: retry, attempt: number + 1, handle: handle, decode: decode,
                    completion: completion)
            }
            if !scheduled { completion(.failure(.cancelled)) }
        }
        timer.schedule(after: timeout, on: clock) { task.cancel() }
        guard handle.start(task) else {
            timer.cancel()
            completion(.failure(.cancelled))
            return
        }
    }

    /// The answer, or the transport failure that kept it from arriving.
    static func interpret(data: Data?, response: URLResponse?, error: Error?, timedOut: Bool)
        -> Result<HTTPAnswer, NotesClientError>
    {
        if let error {
            let urlError = error as? URLError ?? URLError(.unknown)
            switch urlError.code {
            case .cancelled: return .failure(timedOut ? .timedOut : .cancelled)
            case .timedOut: return .failure(.timedOut)
            case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
                return .failure(.transport(.cannotConnect(urlError)))
            case .networkConnectionLost, .badServerResponse, .zeroByteResource:
                return .failure(.transport(.connectionLost(urlError)))
            default: return .failure(.transport(.other(urlError)))
            }
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.transport(.other(URLError(.badServerResponse))))
        }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields {
            headers[name.lowercased()] = value
        }
        return .success(HTTPAnswer(status: http.statusCode, headers: headers, body: data ?? Data()))
    }
}

/// An HTTP answer as the clients' decoders read it.
struct HTTPAnswer: Sendable {
    var status: Int
    /// Field names in lower case.
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The start of the body as text, for ``NotesClientError/http(status:body:)``.
    var bodyExcerpt: String {
        String(decoding: body.prefix(1024), as: UTF8.self)
    }
}

/// The timeout of one attempt: fires once, unless cancelled first.
private final class AttemptTimer: @unchecked Sendable {
    // Guarded by `lock`: the timer's task and URLSession's queue race here.
    private let lock = NSLock()
    private var armed = false
    private var didFire = false
    private var sleeper: Task<Void, Never>?

    var fired: Bool { lock.withLock { didFire } }

    func schedule(
        after delay: Duration, on clock: any Clock<Duration>,
        _ action: @escaping @Sendable () -> Void
    ) {
        lock.withLock { armed = true }
        let sleeper = Task {
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            let fire = self.lock.withLock {
                guard self.armed else { return false }
                self.armed = false
                self.didFire = true
                return true
            }
            if fire { action() }
        }
        // Cancelled before the task was kept: no one else will stop its sleep.
        let cancelled = lock.withLock {
            self.sleeper = sleeper
            return !armed && !didFire
        }
        if cancelled { sleeper.cancel() }
    }

    /// Disarms the timer and ends its sleep, so no clock keeps waiting for it.
    func cancel() {
        let sleeper = lock.withLock {
            armed = false
            defer { self.sleeper = nil }
            return self.sleeper
        }
        sleeper?.cancel()
    }
}

/// Carries a result from URLSession's queue to the waiting thread.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, NotesClientError>?

    func set(_ result: Result<Value, NotesClientError>) {
        lock.withLock { self.result = result }
    }

    func get() -> Result<Value, NotesClientError> {
        lock.withLock { result! }
    }
}
