import Foundation
import MyNotesAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An account's changes as they happen, from ``NotesAPIClient/changeStream(since:reconnection:)``:
/// an `AsyncSequence` of ``NoteChange`` over Server-Sent Events that reconnects by itself.
///
/// Each iteration opens its own connection, on the first `next()`. After a dropped
/// connection it waits as the server's `retry:` asks (longer after each failed attempt,
/// up to ``Reconnection/maxDelay``), then resumes with `Last-Event-ID`: the server sends
/// what was missed, nothing twice. The loop ends when its task is cancelled; it throws
/// only what reconnecting cannot fix: `.rest(.cursorExpired)`, `.rest(.unauthorized)`,
/// an answer that is not an event stream.
///
/// ```swift
/// let watcher = Task {
///     for try await change in client.changeStream(since: cursor) {
///         print(change.kind, change.id, change.note?.content ?? "")
///     }
/// }
/// watcher.cancel()   // the loop ends, the connection closes
/// ```
public struct ChangeStream: AsyncSequence, Sendable {
    /// A change, as it happens.
    public typealias Element = NoteChange
    /// The one error type of MyNotesKit.
    public typealias Failure = NotesClientError

    /// When a stream reconnects, and when it gives up on a silent connection.
    ///
    /// ```swift
    /// client.changeStream(since: cursor, reconnection: .after(.milliseconds(200)))
    /// ```
    public struct Reconnection: Sendable, Hashable {
        /// The wait before reconnecting; `nil` for what the server's `retry:` asks
        /// (3 s until it says).
        public var delay: Duration?
        /// The longest wait, however many attempts failed in a row.
        public var maxDelay: Duration
        /// A connection silent for this long (no change, no heartbeat) is taken for dead
        /// and replaced. The server sends a heartbeat every 15 s.
        public var idleTimeout: Duration

        /// Creates a policy.
        public init(
            delay: Duration? = nil, maxDelay: Duration = .seconds(60),
            idleTimeout: Duration = .seconds(45)
        ) {
            self.delay = delay
            self.maxDelay = maxDelay
            self.idleTimeout = idleTimeout
        }

        /// As the server asks, at most a minute apart; dead after 45 s of silence.
        public static let standard = Reconnection()

        /// A fixed first wait, whatever the server asks (e.g. short, in tests).
        public static func after(_ delay: Duration) -> Reconnection {
            Reconnection(delay: delay)
        }

        /// The wait before attempt `failures + 1` when `failures` attempts in a row failed.
        func wait(serverHint: Duration, failures: Int) -> Duration {
            let base = delay ?? serverHint
            let grown = base * pow(2, Double(Swift.max(0, failures - 1)))
            return Swift.min(grown, maxDelay)
        }
    }

    let client: NotesAPIClient
    let since: ChangeCursor?
    let reconnection: Reconnection

    /// The iterator, with its own connection.
    public func makeAsyncIterator() -> Iterator {
        Iterator(session: ChangeStreamSession(stream: self))
    }

    /// Reads changes from the stream's connection, reconnecting when it drops.
    public struct Iterator: AsyncIteratorProtocol {
        let session: ChangeStreamSession

        /// The next change, waiting for it; `nil` once the task is cancelled.
        public mutating func next() async throws(NotesClientError) -> NoteChange? {
            try await session.next()
        }

        /// The next change, waiting for it; `nil` once the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?)
            async throws(NotesClientError) -> NoteChange?
        {
            try await session.next()
        }
    }
}

/// The state of one iteration of a ``ChangeStream``: its connection, what the parser has
/// read, and where to resume. Read by one task at a time, as iterators are.
final class ChangeStreamSession: @unchecked Sendable {
    private let client: NotesAPIClient
    private let reconnection: ChangeStream.Reconnection
    /// What `Last-Event-ID` says on the next connection: the last complete event's ID.
    private var resumeID: String?
    private var connection: EventStreamConnection?
    private var parser = ServerSentEventParser()
    /// Events parsed and not yet returned; they survive a reconnection.
    private var ready: [ServerSentEvent] = []
    private var serverHint = Duration.seconds(3)
    /// Attempts in a row that did not get a stream.
    private var failures = 0
    private var finished = false

    init(stream: ChangeStream) {
        client = stream.client
        reconnection = stream.reconnection
        resumeID = stream.since?.rawValue
    }

    func next() async throws(NotesClientError) -> NoteChange? {
        do throws(NotesClientError) {
            while !finished {
                if Task.isCancelled { break }
                if !ready.isEmpty {
                    let event = ready.removeFirst()
                    guard event.type == "change" else { continue }
                    return try APIChange.decode(event.data)
                }
                guard let connection else {
                    try await connect()
                    continue
                }
                switch await connection.next() {
                case .head:
                    continue
                case .bytes(let data):
                    do {
                        ready += try parser.feed(data)
                    } catch {
                        throw NotesClientError.invalidResponse(
                            .malformed(format: .json, detail: "an event longer than 16 MiB"))
                    }
                    if !parser.lastEventID.isEmpty { resumeID = parser.lastEventID }
                    if let retry = parser.retry { serverHint = retry }
                case .end:
                    self.connection = nil
                    if Task.isCancelled { continue }
                    try await pause()
                }
            }
        } catch {
            finish()
            throw error
        }
        finish()
        return nil
    }

    private func finish() {
        finished = true
        connection?.cancel()
        connection = nil
    }

    /// Opens a connection, or waits before the next attempt when this one failed in a way
    /// a later one may not; throws what no attempt can fix.
    private func connect() async throws(NotesClientError) {
        var request = RESTRequest(.get, ["changes", "stream"]).urlRequest(
            for: client.configuration)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if let resumeID { request.setValue(resumeID, forHTTPHeaderField: "Last-Event-ID") }
        request.timeoutInterval = reconnection.idleTimeout.seconds
        let opened = try client.engine.openEventStream(
            request, idleTimeout: reconnection.idleTimeout)
        switch await opened.next() {
        case .head(let status, let headers) where status == 200:
            let type = headers["content-type"]?.lowercased() ?? ""
            guard type.hasPrefix("text/event-stream") else {
                opened.cancel()
                throw .invalidResponse(
                    .malformed(format: .json, detail: "not an event stream: '\(type)'"))
            }
            failures = 0
            parser = ServerSentEventParser()
            connection = opened
        case .head(let status, let headers):
            let body = await Self.body(of: opened)
            let failure = RESTResponse.failure(
                HTTPAnswer(status: status, headers: headers, body: body))
            guard RetryPolicy.isTransient(failure) else { throw failure }
            failures += 1
            try await pause(atLeast: failure.retryAfter)
        case .bytes:
            opened.cancel()
            failures += 1
            try await pause()
        case .end(let error):
            if Task.isCancelled { return }
            let failure =
                RequestEngine.interpret(
                    data: nil, response: nil, error: error ?? URLError(.badServerResponse),
                    timedOut: false
                ).failure ?? .transport(.other(URLError(.unknown)))
            guard RetryPolicy.isTransient(failure) else { throw failure }
            failures += 1
            try await pause()
        }
    }

    /// Waits before reconnecting; a cancelled task ends the stream instead.
    private func pause(atLeast asked: Duration? = nil) async throws(NotesClientError) {
        var wait = reconnection.wait(serverHint: serverHint, failures: failures)
        if let asked { wait = max(wait, min(asked, reconnection.maxDelay)) }
        do {
            try await client.configuration.clock.sleep(for: wait)
        } catch {
            finished = true
        }
    }

    /// The body of a refusal, up to 64 KiB, for its problem.
    private static func body(of connection: EventStreamConnection) async -> Data {
        var body = Data()
        while body.count < 65_536, case .bytes(let data) = await connection.next() {
            body.append(data)
        }
        connection.cancel()
        return body
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
