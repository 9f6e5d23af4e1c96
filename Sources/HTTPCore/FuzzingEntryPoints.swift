/// HTTPCore's parsers of outside input that are not public API, as the libFuzzer targets
/// in `Fuzz/` call them. Package access: no client of the library sees them.
///
/// ```swift
/// FuzzingEntryPoints.headerSectionIsMalformed(["Host": "a", "host": "b"], version: "HTTP/1.1")
/// // true: two Host fields
/// ```
package enum FuzzingEntryPoints {
    /// The server's check of a request's header fields, before any body is read.
    package static func headerSectionIsMalformed(_ headers: HTTPHeaders, version: String) -> Bool {
        HeaderValidation.isMalformed(headers, version: version)
    }

    /// What ``frameHTTP1(_:)`` saw a connection's bytes come to.
    package struct HTTP1Framing {
        /// Bytes given, and bytes the machine consumed of them.
        package var received = 0
        package var consumed = 0
        /// Requests handed to the responder, their body bytes in all, and the largest body.
        package var requests = 0
        package var bodyBytes = 0
        package var largestBody = 0
        /// A read that claimed more bytes than it was given.
        package var overconsumed = false
        /// A read that asked to read on but consumed nothing, which would loop for ever.
        package var stalled = false
        /// Bytes consumed after the machine refused the client or closed.
        package var readAfterEnd = false
    }

    /// The body limit ``frameHTTP1(_:)`` sets: small, so that inputs reach the refusals.
    package static let http1FramingMaxBodyBytes = 64

    /// Drives the HTTP/1.1 framing of a connection with `reads` as the successive reads of
    /// its socket, as ``HTTPConnection`` does, answering each request at once with an empty
    /// 200, under small limits.
    package static func frameHTTP1(_ reads: [ArraySlice<UInt8>]) -> HTTP1Framing {
        var configuration = ServerConfiguration()
        configuration.maxBodyBytes = http1FramingMaxBodyBytes
        configuration.maxDiscardedBodyBytes = 256
        configuration.maxHeaderBytes = 512
        configuration.maxRequestTargetBytes = 128
        var machine = HTTP1ConnectionStateMachine(configuration: configuration)
        var framing = HTTP1Framing()
        var pending: [UInt8] = []
        var ended = false
        for bytes in reads {
            pending += bytes
            framing.received += bytes.count
            reading: while !pending.isEmpty {
                let input = pending
                let (consumed, action) = input.withUnsafeBytes { machine.read($0) }
                guard consumed >= 0, consumed <= input.count else {
                    framing.overconsumed = true
                    return framing
                }
                if ended, consumed > 0 { framing.readAfterEnd = true }
                pending.removeFirst(consumed)
                framing.consumed += consumed
                switch action {
                case .needMoreBytes:
                    break reading
                case .readBody:
                    guard consumed > 0 else {
                        framing.stalled = true
                        return framing
                    }
                case .dispatch(_, let body):
                    framing.requests += 1
                    framing.bodyBytes += body.count
                    framing.largestBody = max(framing.largestBody, body.count)
                    ended = !answer(&machine, .ok)
                case .answer(let status):
                    ended = !answer(&machine, status)
                case .refuse, .close:
                    ended = true
                    break reading
                }
            }
        }
        return framing
    }

    /// Answers the request being served; whether the connection is kept after it.
    private static func answer(
        _ machine: inout HTTP1ConnectionStateMachine, _ status: HTTPStatus
    ) -> Bool {
        _ = machine.respond(status: status, body: .whole(count: 0), closeRequested: false)
        return machine.responseSent() == .readNextRequest
    }
}
