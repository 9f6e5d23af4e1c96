/// The HTTP/1.1 framing of one connection, as a value: bytes and events go in, one action
/// comes out, and the caller (``HTTPConnection``) does the I/O. It decides where a request
/// head ends (``RequestHead``), how its body is framed and bounded (`Content-Length`, or
/// chunks through ``ChunkedBodyDecoder``), which refusals close the connection lingering,
/// what leaves a pipelined request's bytes untouched, and how each answer is framed and
/// whether the connection is kept after it.
///
/// It holds no socket, pointer, timer or lock, so it can be tested and fuzzed byte by byte
/// without a network, and it costs no allocation of its own per request: the body's buffer
/// is handed over with the request, and each call returns one action.
///
/// ```swift
/// var machine = HTTP1ConnectionStateMachine(configuration: ServerConfiguration())
/// let (consumed, action) = machine.read(receivedBytes)
/// // drop `consumed` bytes from the input, then do what `action` says
/// ```
struct HTTP1ConnectionStateMachine {
    /// What the connection must do after a ``read(_:)``.
    enum Action {
        /// Wait for more bytes (or, while a request is answered, for its answer).
        case needMoreBytes
        /// A head passed every check and a body follows: the body's deadline starts, the
        /// request counts as in flight, and a client that sent `Expect: 100-continue` is
        /// invited to send its body. Then read on.
        case readBody(expectsContinue: Bool)
        /// A whole request: stop reading and run the responder.
        case dispatch(RequestHead, body: [UInt8])
        /// A chunked body grew over the limit and has now been read to its end: stop
        /// reading and answer this status as the request's response (the connection may
        /// be kept, since its framing held).
        case answer(HTTPStatus)
        /// Answer this status with `Connection: close`, then close lingering: the client
        /// may still be sending, and bytes left unread would make the kernel reset the
        /// connection before the client reads the answer.
        case refuse(HTTPStatus)
        /// Close at once, without an answer.
        case close
    }

    /// What the connection does once an answer has been written.
    enum NextStep {
        case readNextRequest
        case close
    }

    /// What the response's body is, for ``respond(status:body:closeRequested:)``.
    enum ResponseBody {
        /// Bytes known in full, this many.
        case whole(count: Int)
        /// A ``StreamingBody``, sent as it is produced.
        case streamed
    }

    /// How to write an answer.
    struct ResponseFraming {
        let framing: ResponseHead.Framing
        /// Whether the body's bytes follow the head: not for HEAD requests, 1xx, 204, 304.
        let sendsBody: Bool
        let keepAlive: Bool
        let minorVersion: Int
    }

    private enum State {
        /// Waiting for, or reading, a request head; picohttpparser has seen
        /// `parsedLength` bytes of it.
        case head(parsedLength: Int)
        /// Reading a `Content-Length` body.
        case lengthBody(remaining: Int)
        /// Reading a chunked body through ``decoder``.
        case chunkedBody
        /// The responder runs, or its answer is being written.
        case responding
        /// A refusal or a close was decided: nothing more is read.
        case closed
    }

    /// What the answer needs of the request being served.
    private struct Request {
        var isHead = false
        var minorVersion = 1
        var keepAlive = true
    }

    private let limits: RequestHead.Limits
    private let maxDiscardedBodyBytes: Int
    private var state = State.head(parsedLength: 0)
    private var request = Request()
    /// The head whose body is being read.
    private var head: RequestHead?
    private var body: [UInt8] = []
    private var decoder: ChunkedBodyDecoder
    /// Set when a chunked body grows over the limit: read to its end, then answered so.
    private var rejection: HTTPStatus?
    /// Chunked body bytes received, kept or thrown away.
    private var received = 0

    init(configuration: ServerConfiguration) {
        limits = RequestHead.Limits(configuration)
        maxDiscardedBodyBytes = configuration.maxDiscardedBodyBytes
        decoder = ChunkedBodyDecoder(maxTrailerBytes: configuration.maxHeaderBytes)
    }

    /// Whether a request is being answered (its answer may still be delivered).
    var isResponding: Bool {
        if case .responding = state { return true }
        return false
    }

    // MARK: Reading

    /// Frames what `bytes` holds: every byte received and not yet consumed, from the
    /// start. Returns how many of them to consume, and what to do; bytes past a request
    /// (a pipelined one) are left for after its answer.
    mutating func read(_ bytes: UnsafeRawBufferPointer) -> (consumed: Int, action: Action) {
        switch state {
        case .head(let parsedLength):
            guard !bytes.isEmpty else { return (0, .needMoreBytes) }
            switch RequestHead.parse(bytes, previousLength: parsedLength, limits: limits) {
            case .incomplete:
                state = .head(parsedLength: bytes.count)
                return (0, .needMoreBytes)
            case .refused(let status):
                return (0, refuse(status))
            case .complete(let head, let length):
                return (length, begin(head))
            }
        case .lengthBody(let remaining):
            let count = min(remaining, bytes.count)
            body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<count]))
            guard count == remaining else {
                state = .lengthBody(remaining: remaining - count)
                return (count, .needMoreBytes)
            }
            return (count, dispatch())
        case .chunkedBody:
            return readChunks(bytes)
        case .responding, .closed:
            return (0, .needMoreBytes)
        }
    }

    private mutating func begin(_ head: RequestHead) -> Action {
        request = Request(
            isHead: head.method == .head, minorVersion: head.minorVersion,
            keepAlive: head.keepAlive)
        switch head.framing {
        case .none:
            state = .responding
            return .dispatch(head, body: [])
        case .length(let length):
            body.reserveCapacity(length)
            state = .lengthBody(remaining: length)
        case .chunked:
            decoder = ChunkedBodyDecoder(maxTrailerBytes: limits.maxHeaderBytes)
            rejection = nil
            received = 0
            state = .chunkedBody
        }
        self.head = head
        // Only now, with every check of the head passed: a refused client is never
        // invited to send its body.
        return .readBody(expectsContinue: head.expectsContinue)
    }

    private mutating func readChunks(
        _ bytes: UnsafeRawBufferPointer
    ) -> (consumed: Int, action: Action) {
        // A copy, written back: the sink below changes other parts of `self`.
        var decoder = self.decoder
        let maxBodyBytes = limits.maxBodyBytes
        let (consumed, progress) = decoder.decode(bytes) { data in
            received += data.count
            guard rejection == nil else { return }
            if body.count + data.count > maxBodyBytes {
                rejection = .contentTooLarge
                body = []
            } else {
                body.append(contentsOf: data)
            }
        }
        self.decoder = decoder
        // A refused body is thrown away up to a bound; past it the connection closes.
        if rejection != nil, received > maxBodyBytes + maxDiscardedBodyBytes {
            return (consumed, close())
        }
        switch progress {
        case .needsMore:
            return (consumed, .needMoreBytes)
        case .malformed:
            return (consumed, refuse(.badRequest))
        case .complete:
            guard let rejection else { return (consumed, dispatch()) }
            head = nil
            state = .responding
            return (consumed, .answer(rejection))
        }
    }

    private mutating func dispatch() -> Action {
        // Both are handed over, not copied: the machine keeps no reference to either.
        var body: [UInt8] = []
        swap(&body, &self.body)
        guard let head else { return close() }
        self.head = nil
        state = .responding
        return .dispatch(head, body: body)
    }

    private mutating func refuse(_ status: HTTPStatus) -> Action {
        request.keepAlive = false
        state = .closed
        head = nil
        body = []
        return .refuse(status)
    }

    private mutating func close() -> Action {
        state = .closed
        head = nil
        body = []
        return .close
    }

    // MARK: Answering

    /// How to frame the answer to the request being served: `closeRequested` when the
    /// responder's answer says `Connection: close` or the server is draining. `nil` when
    /// no request awaits an answer (the connection closed meanwhile).
    mutating func respond(
        status: HTTPStatus, body: ResponseBody, closeRequested: Bool
    ) -> ResponseFraming? {
        guard case .responding = state else { return nil }
        if closeRequested { request.keepAlive = false }
        let sendsBody = !request.isHead && ResponseHead.allowsBody(status)
        let framing: ResponseHead.Framing
        switch body {
        case .whole(let count):
            framing = ResponseHead.lengthFraming(status: status, count: count)
        case .streamed where !sendsBody:
            framing = .none
        case .streamed where request.minorVersion > 0:
            framing = .chunked
        case .streamed:
            // HTTP/1.0 has no chunks: the body ends with the connection.
            request.keepAlive = false
            framing = .untilClose
        }
        return ResponseFraming(
            framing: framing, sendsBody: sendsBody, keepAlive: request.keepAlive,
            minorVersion: request.minorVersion)
    }

    /// The framing of the bodiless answer sent instead of a stream the server has no room
    /// for (503); the connection closes after it.
    mutating func refuseStream() -> ResponseFraming {
        request.keepAlive = false
        return ResponseFraming(
            framing: .length(0), sendsBody: false, keepAlive: false,
            minorVersion: request.minorVersion)
    }

    /// The answer has been written: the connection reads the next request (whose bytes
    /// may have arrived already), or closes.
    mutating func responseSent() -> NextStep {
        guard case .responding = state, request.keepAlive else {
            state = .closed
            return .close
        }
        state = .head(parsedLength: 0)
        return .readNextRequest
    }

    /// The connection closed: whatever arrives or is answered later is dropped.
    mutating func closed() {
        state = .closed
        head = nil
        body = []
    }
}
