import Foundation
import MyNotesProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client of a MyNotes server's legacy `webservice.php` protocol.
///
/// One client per server and account; it is `Sendable` and its calls may run
/// concurrently. Each call comes in three styles that behave the same:
///
/// ```swift
/// let client = NotesClient(
///     server: URL(string: "https://notes.example.com")!,
///     credentials: .token(email: "ann@example.com", token: token))
///
/// // async/await, the main style
/// let notes = try await client.query()
///
/// // completion handler, called on the queue you choose
/// let request = client.add("Buy milk", on: .main) { result in print(result) }
/// request.cancel()
///
/// // blocking, for scripts and command-line tools; never on a UI thread
/// try client.blocking.remove(id: 12)
/// ```
///
/// Every failure is a ``NotesClientError``. `query` is retried on transient
/// failures by ``Configuration/retry``; `add`, `modify` and `remove` never are.
public final class NotesClient: Sendable {
    /// The configuration the client was made with.
    public let configuration: Configuration
    private let session: URLSession
    private let timerQueue = DispatchQueue(label: "MyNotesKit.NotesClient.timers")

    /// Creates a client.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // The client's own timer reports timeouts, the same on every platform; URLSession's
        // (an idle timeout, not a total one) is only a backstop, far enough not to race it.
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout.seconds + 30
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        session = URLSession(configuration: sessionConfiguration)
    }

    /// Creates a client with the default configuration for a server and an account.
    public convenience init(server: URL, credentials: Credentials) {
        self.init(Configuration(server: server, credentials: credentials))
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// All notes of the account, newest first.
    ///
    /// ```swift
    /// let notes = try await client.query()
    /// ```
    public func query() async throws(NotesClientError) -> [Note] {
        try await run(queryOperation())
    }

    /// Adds a note and returns it with the ID the server gave it.
    ///
    /// ```swift
    /// let note = try await client.add("Call Bob", date: NoteDate("2026-12-01 09:00")!)
    /// ```
    public func add(_ content: String, date: NoteDate = .now) async throws(NotesClientError) -> Note
    {
        try await run(addOperation(content, date: date))
    }

    /// Replaces a note's content and date.
    ///
    /// ```swift
    /// try await client.modify(id: note.id, content: "Call Bob at 10", date: note.date)
    /// ```
    public func modify(id: Int, content: String, date: NoteDate) async throws(NotesClientError) {
        try await run(modifyOperation(id: id, content: content, date: date))
    }

    /// Removes a note.
    ///
    /// ```swift
    /// try await client.remove(id: note.id)
    /// ```
    public func remove(id: Int) async throws(NotesClientError) {
        try await run(removeOperation(id: id))
    }

    // MARK: - The one engine behind all three styles

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

    func perform<Value: Sendable>(
        _ operation: NotesOperation<Value>, handle: NotesRequest,
        completion: @escaping @Sendable (Result<Value, NotesClientError>) -> Void
    ) {
        guard let scheme = configuration.server.scheme?.lowercased(),
            ["http", "https"].contains(scheme)
        else {
            completion(.failure(.invalidConfiguration("the server URL must be http or https")))
            return
        }
        attempt(1, operation, handle: handle) { result in
            completion(
                result.flatMap { response in
                    Result { () throws(NotesClientError) in
                        try operation.transform(response)
                    }
                })
        }
    }

    private func attempt<Value: Sendable>(
        _ number: Int, _ operation: NotesOperation<Value>, handle: NotesRequest,
        completion: @escaping @Sendable (Result<LegacyResponse, NotesClientError>) -> Void
    ) {
        let request = operation.request.urlRequest(for: configuration)
        let format = configuration.wire
        let timer = AttemptTimer()
        let task = session.dataTask(with: request) { data, response, error in
            timer.cancel()
            let result = Self.interpret(
                data: data, response: response, error: error, timedOut: timer.fired, format: format)
            if case .failure(let failure) = result, number < operation.retry.maxAttempts,
                RetryPolicy.isTransient(failure)
            {
                let scheduled = handle.scheduleRetry(
                    after: operation.retry.delay(afterAttempt: number), on: self.timerQueue,
                    onCancel: { completion(.failure(.cancelled)) }
                ) {
                    self.attempt(number + 1, operation, handle: handle, completion: completion)
                }
                if !scheduled { completion(.failure(.cancelled)) }
                return
            }
            completion(result)
        }
        timer.schedule(after: configuration.timeout, on: timerQueue) { task.cancel() }
        guard handle.start(task) else {
            timer.cancel()
            completion(.failure(.cancelled))
            return
        }
    }

    static func interpret(
        data: Data?, response: URLResponse?, error: Error?, timedOut: Bool, format: WireFormat
    ) -> Result<LegacyResponse, NotesClientError> {
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
        let body = data ?? Data()
        if let http = response as? HTTPURLResponse, http.statusCode != 200 {
            return .failure(
                .http(
                    status: http.statusCode,
                    body: String(decoding: body.prefix(1024), as: UTF8.self)))
        }
        return Result { () throws(NotesClientError) in
            try LegacyResponse.decode(body, format: format).validated()
        }
    }
}

/// The timeout of one attempt: fires once, unless cancelled first.
private final class AttemptTimer: @unchecked Sendable {
    // Guarded by `lock`: the timer queue and URLSession's queue race here.
    private let lock = NSLock()
    private var armed = false
    private var didFire = false

    var fired: Bool { lock.withLock { didFire } }

    func schedule(
        after delay: Duration, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void
    ) {
        lock.withLock { armed = true }
        queue.asyncAfter(deadline: .now() + delay.seconds) {
            let fire = self.lock.withLock {
                guard self.armed else { return false }
                self.armed = false
                self.didFire = true
                return true
            }
            if fire { action() }
        }
    }

    func cancel() {
        lock.withLock { armed = false }
    }
}
