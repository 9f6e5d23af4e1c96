import Dispatch
import Locking

/// A response body produced while it is sent: the handler returns it at once inside an
/// ``HTTPResponse`` and a producer, on any thread or task, pushes bytes into it. The server
/// sends them with chunked transfer encoding as the client reads.
///
/// The buffer between producer and client is bounded: when the client does not read,
/// ``write(_:)`` suspends (``blockingWrite(_:)`` blocks its thread) and ``tryWrite(_:)``
/// answers `.full`, so a slow client holds at most `bufferBytes` (plus the socket's
/// buffers), whatever the producer has to say. When the client goes away, or the server
/// stops, the next write fails with ``StreamingBodyError/closed`` and ``onTermination``
/// runs: the producer stops there.
///
/// ```swift
/// router.on("/count", methods: [.get]) { _, _ in
///     let body = StreamingBody()
///     Task {
///         for n in 1...1_000 { try await body.write(Array("\(n)\n".utf8)) }
///         body.finish()
///     }
///     return HTTPResponse(status: .ok, contentType: "text/plain", stream: body)
/// }
/// ```
///
/// While no bytes are ready the connection waits (it costs no CPU) without reading, and the
/// server cannot see a client that leaves until the next write: a producer that may stay silent
/// for long should send something now and then to find out.
public final class StreamingBody: Sendable {
    /// What ``tryWrite(_:)`` did with the bytes.
    public enum WriteOutcome: Sendable, Equatable {
        /// Buffered; they will be sent.
        case written
        /// Not taken: the buffer is full because the client reads slower than the producer
        /// writes. Try again later, or use ``write(_:)``, which waits for room.
        case full
        /// Not taken, and no write will be: the response has ended.
        case closed
    }

    /// How a stream ended, as told to ``onTermination``.
    public enum Termination: Sendable, Equatable {
        /// ``finish()`` was called and every byte was handed to the connection.
        case finished
        /// The response ended before that: the client went away, or the server stopped.
        case abandoned
    }

    /// What the server's reader gets from ``read(into:)``.
    enum ReadOutcome: Equatable {
        case bytes(Int)
        /// Nothing buffered yet: ``attach(wakeup:)``'s closure
        /// runs once bytes (or the end) arrive.
        case empty
        case finished
        case abandoned
    }

    /// A writer waiting for room: a task, or a thread.
    private enum Waiter {
        case task(CheckedContinuation<Void, Never>)
        case thread(DispatchSemaphore)

        func resume() {
            switch self {
            case .task(let continuation): continuation.resume()
            case .thread(let semaphore): semaphore.signal()
            }
        }
    }

    private struct State {
        var chunks: [[UInt8]] = []
        /// Index of the first unsent chunk in `chunks`, and how much of it was sent.
        var head = 0
        var offset = 0
        var buffered = 0
        var finished = false
        var ended: Termination?
        var readerWaiting = false
        var wakeup: (@Sendable () -> Void)?
        /// Writers waiting for room, with the size of what each wants to write.
        var writers: [UInt64: (bytes: Int, waiter: Waiter)] = [:]
        var nextWriter: UInt64 = 0
        var onTermination: (@Sendable (Termination) -> Void)?
    }

    /// The most bytes held between the producer and the connection.
    public let bufferBytes: Int
    private let state = Lock(State())

    /// - Parameter bufferBytes: how much the producer may write ahead of the client; a
    ///   single write larger than this is still taken when the buffer is empty.
    public init(bufferBytes: Int = 64 << 10) {
        self.bufferBytes = max(1, bufferBytes)
    }

    /// Runs once when the stream ends, on whichever thread ends it; at once if it has.
    public var onTermination: (@Sendable (Termination) -> Void)? {
        get { state.withLock { $0.onTermination } }
        set {
            let ended: Termination? = state.withLock {
                guard let ended = $0.ended else {
                    $0.onTermination = newValue
                    return nil
                }
                return ended
            }
            if let ended { newValue?(ended) }
        }
    }

    /// Appends bytes, waiting while the buffer is full.
    ///
    /// - Throws: ``StreamingBodyError/closed`` once the response has ended (the client went
    ///   away, the server stopped, or ``finish()`` was called);
    ///   ``StreamingBodyError/cancelled`` when the task was cancelled while waiting.
    public func write(_ bytes: [UInt8]) async throws(StreamingBodyError) {
        while true {
            switch tryWrite(bytes) {
            case .written: return
            case .closed: throw .closed
            case .full:
                if Task.isCancelled { throw .cancelled }
                await waitForRoom(bytes.count)
            }
        }
    }

    /// Appends bytes, blocking the calling thread while the buffer is full: for a
    /// producer on a thread of its own. From a task, use ``write(_:)``, which suspends
    /// instead of holding one of the few threads tasks run on.
    ///
    /// - Throws: ``StreamingBodyError/closed`` once the response has ended.
    public func blockingWrite(_ bytes: [UInt8]) throws(StreamingBodyError) {
        while true {
            switch tryWrite(bytes) {
            case .written: return
            case .closed: throw .closed
            case .full:
                let semaphore = DispatchSemaphore(value: 0)
                let waiting = state.withLock { state in
                    guard !canProceed(state, writing: bytes.count) else { return false }
                    state.nextWriter += 1
                    state.writers[state.nextWriter] = (bytes.count, .thread(semaphore))
                    return true
                }
                if waiting { semaphore.wait() }
            }
        }
    }

    /// Appends bytes if there is room, without waiting.
    @discardableResult
    public func tryWrite(_ bytes: [UInt8]) -> WriteOutcome {
        state.withLock { state in
            if state.ended != nil || state.finished { return .closed }
            if bytes.isEmpty { return .written }
            if state.buffered > 0, state.buffered + bytes.count > bufferBytes { return .full }
            state.chunks.append(bytes)
            state.buffered += bytes.count
            Self.wakeReader(&state)
            return .written
        }
    }

    /// Ends the body once what is buffered has been sent. Later writes answer `.closed`.
    public func finish() {
        state.withLock { state in
            guard state.ended == nil, !state.finished else { return }
            state.finished = true
            Self.wakeReader(&state)
        }
    }

    /// Whether the response has ended, so that no write will be taken.
    public var isClosed: Bool { state.withLock { $0.ended != nil || $0.finished } }

    // MARK: The server's side

    /// Connects the body to a connection: `wakeup` tells the waiting connection to read again. It is
    /// called with the body's lock held, so that it never runs after ``end(_:)`` detached it
    /// (the connection it points to may be gone by then).
    func attach(wakeup: @escaping @Sendable () -> Void) {
        state.withLock { $0.wakeup = wakeup }
    }

    /// Copies buffered bytes into `buffer`. When there are none yet, the reader is marked
    /// waiting, under the lock, so that the next write (or the end) calls the wakeup.
    func read(
        into buffer: UnsafeMutableRawBufferPointer
    ) -> ReadOutcome {
        let (outcome, writers) = state.withLock {
            state -> (ReadOutcome, [Waiter]) in
            if state.ended != nil { return (.abandoned, []) }
            guard state.buffered > 0 else {
                if state.finished { return (.finished, []) }
                state.readerWaiting = true
                return (.empty, [])
            }
            var copied = 0
            while copied < buffer.count, state.head < state.chunks.count {
                let chunk = state.chunks[state.head]
                let count = min(chunk.count - state.offset, buffer.count - copied)
                chunk.withUnsafeBytes {
                    buffer.baseAddress!.advanced(by: copied).copyMemory(
                        from: $0.baseAddress!.advanced(by: state.offset), byteCount: count)
                }
                copied += count
                state.offset += count
                if state.offset == chunk.count {
                    state.head += 1
                    state.offset = 0
                }
            }
            state.buffered -= copied
            if state.head == state.chunks.count {
                state.chunks.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head > 32 {
                state.chunks.removeFirst(state.head)
                state.head = 0
            }
            return (.bytes(copied), takeWriters(&state))
        }
        for writer in writers { writer.resume() }
        return outcome
    }

    /// Ends the stream for good: the connection is done with it (`finished` when every byte
    /// went out), or the server stops. Waiting writers fail, the wakeup is dropped, and
    /// ``onTermination`` runs. A waiting reader is woken first so that it can end.
    func end(_ termination: Termination) {
        typealias Ending = (
            writers: [Waiter],
            callback: (@Sendable (Termination) -> Void)?, ended: Termination
        )
        let (writers, callback, ended) = state.withLock { state -> Ending in
            guard state.ended == nil else { return ([], nil, .abandoned) }
            let ended: Termination =
                termination == .finished && state.finished && state.buffered == 0
                ? .finished : .abandoned
            state.ended = ended
            Self.wakeReader(&state)
            state.wakeup = nil
            state.chunks = []
            state.buffered = 0
            let callback = state.onTermination
            state.onTermination = nil
            return (takeWriters(&state), callback, ended)
        }
        for writer in writers { writer.resume() }
        callback?(ended)
    }

    private static func wakeReader(_ state: inout State) {
        guard state.readerWaiting else { return }
        state.readerWaiting = false
        state.wakeup?()
    }

    /// Whether a write of `bytes` would be taken now, or fail for good: either way its
    /// writer need not wait.
    private func canProceed(_ state: State, writing bytes: Int) -> Bool {
        state.ended != nil || state.buffered == 0 || state.buffered + bytes <= bufferBytes
    }

    private func takeWriters(_ state: inout State) -> [Waiter] {
        var ready: [Waiter] = []
        for (id, writer) in state.writers where canProceed(state, writing: writer.bytes) {
            ready.append(writer.waiter)
            state.writers[id] = nil
        }
        return ready
    }

    /// Suspends until a read makes room, the stream ends, or the task is cancelled.
    private func waitForRoom(_ bytes: Int) async {
        let id = state.withLock { state in
            state.nextWriter += 1
            return state.nextWriter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if canProceed(state, writing: bytes) || Task.isCancelled { return true }
                    state.writers[id] = (bytes, .task(continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let writer = state.withLock { $0.writers.removeValue(forKey: id) }
            writer?.waiter.resume()
        }
    }
}
