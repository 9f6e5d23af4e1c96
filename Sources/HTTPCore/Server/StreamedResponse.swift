import CMicroHTTPD

/// A ``StreamingBody`` being sent on a libmicrohttpd connection: the context of the
/// response's reader and free callbacks. libmicrohttpd keeps it (retained) from the
/// response's creation until it frees the response, and the connection outlives that.
final class StreamedResponse: @unchecked Sendable {
    let body: StreamingBody
    /// Only used to suspend and resume it; `@unchecked` because libmicrohttpd makes
    /// `MHD_resume_connection` safe from any thread.
    let connection: OpaquePointer
    let state: DaemonState

    init(body: StreamingBody, connection: OpaquePointer, state: DaemonState) {
        self.body = body
        self.connection = connection
        self.state = state
    }

    /// Creates the libmicrohttpd response; it owns a retained reference to `self`.
    func makeResponse() -> OpaquePointer? {
        // While the connection waits for bytes it is suspended; the producer's next
        // write resumes it. The body calls this under its lock, after the suspension
        // (also under it), and drops it when the response is freed, so it never touches
        // a connection that is gone. Lock order: the body's, then libmicrohttpd's, which
        // never calls us while it holds its own.
        body.attach { [self] in MHD_resume_connection(connection) }
        guard state.streams.begin(body) else {
            body.end(.abandoned)
            return nil
        }
        let context = Unmanaged.passRetained(self).toOpaque()
        // 16 KiB per read: large enough for few syscalls, small enough for the
        // connection's memory pool, which also holds the request.
        guard
            let response = MHD_create_response_from_callback(
                UInt64.max, 16 << 10, readStream, context, freeStream)
        else {
            Unmanaged<StreamedResponse>.fromOpaque(context).release()
            state.streams.end(body)
            body.end(.abandoned)
            return nil
        }
        return response
    }
}

/// libmicrohttpd asks for the next bytes of a streamed body.
private let readStream: MHD_ContentReaderCallback = { context, _, buffer, capacity in
    guard let context, let buffer else { return -2 }
    let streamed = Unmanaged<StreamedResponse>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeMutableRawBufferPointer(start: buffer, count: capacity)
    // Nothing yet: leave the poll loop until a write resumes the connection, rather
    // than be asked again at once.
    switch streamed.body.read(
        into: bytes, whenEmpty: { MHD_suspend_connection(streamed.connection) })
    {
    case .bytes(let count): return count
    case .empty: return 0
    case .finished: return -1  // MHD_CONTENT_READER_END_OF_STREAM
    case .abandoned: return -2  // MHD_CONTENT_READER_END_WITH_ERROR: close the connection
    }
}

/// libmicrohttpd is done with the response: sent, or its connection failed.
private let freeStream: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let streamed = Unmanaged<StreamedResponse>.fromOpaque(context).takeRetainedValue()
    streamed.state.streams.end(streamed.body)
    streamed.body.end(.finished)
}
