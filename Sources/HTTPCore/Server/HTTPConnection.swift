import CH2O

#if canImport(Glibc)
    import Glibc
#endif

/// One client connection on an ``EventLoop``: it reads a request head and body, runs the
/// responder, writes the answer, and then either reads the next request or closes.
///
/// Used on its loop's thread only; answers computed elsewhere come back through
/// ``EventLoop/post(_:)``. HTTP/1.1 framing is ours, not h2o's, and is decided by
/// ``HTTP1ConnectionStateMachine``: this class owns the socket, its buffers and timers, and
/// does what the machine's actions say. Every refusal is answered before the connection
/// closes (h2o's own HTTP/1 code closes on a parse error without a word, takes `CHUNKED`
/// with a `Content-Length`, and closes a refused upload with its body still arriving,
/// which resets it).
final class HTTPConnection: @unchecked Sendable {
    // @unchecked: its state is touched on its loop's thread only. Other threads only hold
    // a reference to post work back to that loop (``EventLoop/post(_:)``).

    /// A buffer being written, which h2o reads until the write completes.
    private struct Write {
        let buffer: UnsafeMutableRawBufferPointer
        let count: Int
        let completion: () -> Void
    }

    /// The size of a streamed chunk's length prefix: eight hexadecimal digits and CRLF.
    private static let chunkPrefixBytes = 10
    /// How much of a streamed body goes into one chunk: few system calls, bounded memory.
    private static let chunkBytes = 16 << 10

    let loop: EventLoop
    private let socket: UnsafeMutablePointer<h2o_socket_t>
    private let state: ServerState
    private let record: ConnectionRecord
    private let peer: PeerAddress?
    private let address: ConnectionLimiter.Address?
    /// Fires after ``ServerConfiguration/idleTimeoutSeconds`` of silence.
    private let timer: UnsafeMutablePointer<ch2o_timer_t>

    private var machine: HTTP1ConnectionStateMachine
    private var closed = false
    /// Whether this connection's request counts in ``ServerState/requestsInFlight``.
    private var inFlight = false
    /// Closed the way nginx's lingering close does: its client may still be sending.
    private var lingers = false
    private var writes: [Write] = []
    private var writing = false
    private var stream: StreamingBody?
    private var streamIsChunked = true

    init(
        socket: UnsafeMutablePointer<h2o_socket_t>, loop: EventLoop, peer: PeerAddress?,
        address: ConnectionLimiter.Address?
    ) {
        self.socket = socket
        self.loop = loop
        self.state = loop.state
        self.peer = peer
        self.address = address
        machine = HTTP1ConnectionStateMachine(configuration: loop.state.configuration)
        record = ConnectionRecord(
            descriptor: h2o_socket_get_fd(socket),
            deadline: loop.state.watchdog.now + loop.state.watchdog.headTimeout)
        timer = .allocate(capacity: 1)
        timer.initialize(to: ch2o_timer_t())
        timer.pointee.entry.cb = idleTimeoutExpired
    }

    /// Begins serving: the TLS handshake when the server speaks TLS, then the first request.
    func start() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        socket.pointee.data = context
        timer.pointee.context = context
        state.openConnections.add(1, ordering: .relaxed)
        state.watchdog.register(record)
        guard let tls = state.tls else {
            readNextRequest()
            return
        }
        linkTimer()
        var handshaking = false
        tls.withSSLContext { context in
            handshaking = true
            h2o_socket_ssl_handshake(socket, context, nil, onHandshakeCompleted)
        }
        // No context to handshake with: nothing can be served on this connection.
        if !handshaking { close() }
    }

    // MARK: Reading

    fileprivate func readNextRequest() {
        linkTimer()
        h2o_socket_read_start(socket, onBytesArrived)
        processInput()
    }

    fileprivate func bytesArrived() {
        linkTimer()
        processInput()
    }

    /// Frames what has arrived, as far as it goes: a head, a body, or both (and a pipelined
    /// request after them, once the first is answered).
    private func processInput() {
        while true {
            let input = socket.pointee.input!
            let bytes = UnsafeRawBufferPointer(
                start: input.pointee.bytes, count: input.pointee.size)
            guard !bytes.isEmpty else { return }
            let (consumed, action) = machine.read(bytes)
            consume(consumed)
            switch action {
            case .needMoreBytes:
                return
            case .readBody(let expectsContinue):
                countInFlight()
                record.deadline.store(
                    state.watchdog.now + state.watchdog.bodyTimeout, ordering: .relaxed)
                if expectsContinue {
                    write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) {}
                }
            case .dispatch(let head, let body):
                countInFlight()
                dispatch(head, body: body)
                return
            case .answer(let status):
                stopReading()
                deliver(.plain(status))
                return
            case .refuse(let status):
                refuse(status)
                return
            case .close:
                close()
                return
            }
        }
    }

    private func countInFlight() {
        guard !inFlight else { return }
        inFlight = true
        state.requestsInFlight.add(1, ordering: .relaxed)
    }

    private func consume(_ count: Int) {
        guard count > 0 else { return }
        h2o_buffer_consume(&socket.pointee.input, count)
    }

    private func stopReading() {
        h2o_socket_read_stop(socket)
        unlinkTimer()
        record.deadline.store(ConnectionRecord.noDeadline, ordering: .relaxed)
    }

    // MARK: Answering

    /// Runs the responder in a task, inline on this thread until it first waits; an answer
    /// by then is written at once, a later one is posted back to this loop.
    private func dispatch(_ head: RequestHead, body: [UInt8]) {
        stopReading()
        var received = HTTPRequest(
            method: head.method, target: head.target, headers: head.headers, body: body)
        received.peer = peer
        let request = received
        let loop = loop
        let deferred = DeferredResponse { [self] response in
            loop.post { self.deliver(response) }
        }
        guard state.deferred.begin(deferred) else {
            deliver(.plain(.serviceUnavailable))
            return
        }
        let state = state
        state.executor.start {
            let response = await state.responder.respond(to: request, context: RequestContext())
            deferred.answer(response)
            state.deferred.end(deferred)
        }
        if let response = deferred.responseOrWait() {
            deliver(response)
        }
    }

    /// Writes the answer to the request being served (dropped if the connection closed
    /// meanwhile).
    private func deliver(_ response: HTTPResponse) {
        let closeRequested =
            response.headers["Connection"]?.lowercased().contains("close") == true
            || state.draining.load(ordering: .relaxed)
        guard !closed,
            let framing = machine.respond(
                status: response.status,
                body: response.stream == nil ? .whole(count: response.body.count) : .streamed,
                closeRequested: closeRequested)
        else {
            response.stream?.end(.abandoned)
            return
        }
        if let stream = response.stream {
            guard framing.sendsBody else {
                stream.end(.abandoned)
                return send(response, framing: framing)
            }
            return startStream(stream, response: response, framing: framing)
        }
        send(response, framing: framing, body: framing.sendsBody ? response.body : [])
    }

    private func send(
        _ response: HTTPResponse, framing: HTTP1ConnectionStateMachine.ResponseFraming,
        body: [UInt8] = []
    ) {
        let bytes = ResponseHead.bytes(
            response, framing: framing.framing, keepAlive: framing.keepAlive,
            minorVersion: framing.minorVersion, date: loop.date.current())
        write(bytes, body) { [self] in finishResponse() }
    }

    /// Refuses what the head (or a body's framing) showed, and closes lingering: the client
    /// may be sending a body still, and closing with its bytes unread would reset the
    /// connection before it read the answer.
    private func refuse(_ status: HTTPStatus) {
        stopReading()
        lingers = true
        let response = HTTPResponse.plain(status)
        let bytes = ResponseHead.bytes(
            response, framing: .length(response.body.count), keepAlive: false,
            minorVersion: 1, date: loop.date.current())
        write(bytes, response.body) { [self] in close() }
    }

    private func finishResponse() {
        // The next request's head is due after the idle time and the head timeout.
        record.deadline.store(
            state.watchdog.now + state.watchdog.nextHeadTimeout, ordering: .relaxed)
        if inFlight {
            inFlight = false
            state.requestsInFlight.subtract(1, ordering: .relaxed)
        }
        switch machine.responseSent() {
        case .readNextRequest: readNextRequest()
        case .close: close()
        }
    }

    // MARK: Streaming

    /// Sends a ``StreamingBody`` as it is written: one chunk in flight at a time, so that a
    /// client that does not read stops the reads from the body, whose buffer then fills
    /// and makes the producer wait.
    private func startStream(
        _ stream: StreamingBody, response: HTTPResponse,
        framing: HTTP1ConnectionStateMachine.ResponseFraming
    ) {
        guard state.streams.begin(stream) else {
            stream.end(.abandoned)
            return send(.plain(.serviceUnavailable), framing: machine.refuseStream())
        }
        self.stream = stream
        // HTTP/1.0 has no chunks: the body ends with the connection (the machine framed
        // it so, and closes after it).
        streamIsChunked = framing.framing == .chunked
        // Called with the body's lock held, when bytes or the end arrive after a read found
        // none; it only posts, which takes no lock of the body's.
        let loop = loop
        stream.attach { [self] in loop.post { self.pump() } }
        let bytes = ResponseHead.bytes(
            response, framing: framing.framing, keepAlive: framing.keepAlive,
            minorVersion: framing.minorVersion, date: loop.date.current())
        write(bytes) { [self] in pump() }
    }

    /// Sends what the body holds, or waits for the producer (its next write posts this).
    private func pump() {
        guard !closed, machine.isResponding, let stream, !writing else { return }
        let prefix = streamIsChunked ? Self.chunkPrefixBytes : 0
        let capacity = prefix + Self.chunkBytes + 2
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        let outcome = stream.read(
            into: UnsafeMutableRawBufferPointer(
                rebasing: buffer[prefix..<(prefix + Self.chunkBytes)]))
        switch outcome {
        case .bytes(let count):
            var end = prefix + count
            if streamIsChunked {
                // Leading zeros are allowed in a chunk size (RFC 9112 §7.1: 1*HEXDIG).
                var size = count
                for index in (0..<8).reversed() {
                    buffer[index] = Self.hexDigits[size & 0xF]
                    size >>= 4
                }
                buffer[8] = UInt8(ascii: "\r")
                buffer[9] = UInt8(ascii: "\n")
                buffer[end] = UInt8(ascii: "\r")
                buffer[end + 1] = UInt8(ascii: "\n")
                end += 2
            }
            enqueue(Write(buffer: buffer, count: end) { [self] in pump() })
        case .empty:
            buffer.deallocate()
            // Waiting for the producer is not the client's silence.
            unlinkTimer()
        case .finished:
            buffer.deallocate()
            let last: [UInt8] = streamIsChunked ? Array("0\r\n\r\n".utf8) : []
            write(last) { [self] in
                endStream(.finished)
                finishResponse()
            }
        case .abandoned:
            buffer.deallocate()
            close()
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private func endStream(_ termination: StreamingBody.Termination) {
        guard let stream else { return }
        self.stream = nil
        state.streams.end(stream)
        stream.end(termination)
    }

    // MARK: Writing

    /// Writes `parts` as one buffer once the writes before it are done, then runs
    /// `completion` (unless the connection failed meanwhile).
    private func write(_ parts: [UInt8]..., completion: @escaping () -> Void) {
        let count = parts.reduce(0) { $0 + $1.count }
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(count, 1), alignment: 1)
        var offset = 0
        for part in parts {
            part.withUnsafeBytes {
                UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]).copyMemory(from: $0)
            }
            offset += part.count
        }
        enqueue(Write(buffer: buffer, count: count, completion: completion))
    }

    private func enqueue(_ write: Write) {
        writes.append(write)
        if !writing { writeNext() }
    }

    private func writeNext() {
        guard let next = writes.first, !closed else { return }
        if next.count == 0 {
            writes.removeFirst()
            next.buffer.deallocate()
            next.completion()
            if !writing { writeNext() }
            return
        }
        writing = true
        linkTimer()
        var vector = h2o_iovec_t(
            base: next.buffer.baseAddress?.assumingMemoryBound(to: CChar.self), len: next.count)
        h2o_socket_write(socket, &vector, 1, onBytesWritten)
    }

    fileprivate func written(failed: Bool) {
        writing = false
        let done = writes.removeFirst()
        done.buffer.deallocate()
        if failed {
            close()
            return
        }
        done.completion()
        if !writing { writeNext() }
    }

    // MARK: Closing

    /// Closes the connection and forgets it; with a write in flight, the write is made to
    /// fail first (h2o must not close a socket it is writing to), which calls this again.
    func close() {
        guard !closed else { return }
        if writing {
            shutdown(record.descriptor, Int32(SHUT_RDWR))
            return
        }
        closed = true
        machine.closed()
        unlinkTimer()
        timer.deallocate()
        // Before the socket closes, under the watchdog's lock: it must not shut a
        // descriptor that has been reused.
        state.watchdog.unregister(record)
        if lingers { state.lingeringCloser.adopt(record.descriptor) }
        endStream(.abandoned)
        if inFlight {
            inFlight = false
            state.requestsInFlight.subtract(1, ordering: .relaxed)
        }
        for write in writes { write.buffer.deallocate() }
        writes = []
        state.limiter.release(address)
        state.openConnections.subtract(1, ordering: .relaxed)
        socket.pointee.data = nil
        h2o_socket_close(socket)
        loop.forget(self)
    }

    // MARK: The idle timer

    private func linkTimer() {
        if ch2o_timer_is_linked(timer) != 0 { h2o_timeout_unlink(&timer.pointee.entry) }
        h2o_timeout_link(loop.loop, loop.idleTimeout, &timer.pointee.entry)
    }

    private func unlinkTimer() {
        if ch2o_timer_is_linked(timer) != 0 { h2o_timeout_unlink(&timer.pointee.entry) }
    }
}

// h2o's callbacks, on the loop's thread. Free functions, not closures in the class, so
// that no actor isolation is inferred for them.

private func connection(of socket: UnsafeMutablePointer<h2o_socket_t>?) -> HTTPConnection? {
    guard let data = socket?.pointee.data else { return nil }
    return Unmanaged<HTTPConnection>.fromOpaque(data).takeUnretainedValue()
}

private let onBytesArrived: h2o_socket_cb = { socket, error in
    guard let connection = connection(of: socket) else { return }
    if error != nil {
        connection.close()
    } else {
        connection.bytesArrived()
    }
}

private let onBytesWritten: h2o_socket_cb = { socket, error in
    connection(of: socket)?.written(failed: error != nil)
}

private let onHandshakeCompleted: h2o_socket_cb = { socket, error in
    guard let connection = connection(of: socket) else { return }
    if error != nil {
        connection.close()
    } else {
        connection.readNextRequest()
    }
}

private let idleTimeoutExpired: h2o_timeout_cb = { entry in
    guard let entry, let context = ch2o_timer_context(entry) else { return }
    Unmanaged<HTTPConnection>.fromOpaque(context).takeUnretainedValue().close()
}
