import CMicroHTTPD
import Glibc

// libmicrohttpd calls these from its worker threads. They are free functions, not
// closures, so that no actor isolation is inferred for them.

/// Decides whether to take a new connection: all of them, until shutdown begins.
let acceptConnection: MHD_AcceptPolicyCallback = { daemonState, _, _ in
    guard let daemonState else { return .NO }
    let state = Unmanaged<DaemonState>.fromOpaque(daemonState).takeUnretainedValue()
    return state.draining.load(ordering: .acquiring) ? .NO : .YES
}

/// Called with the raw request target before anything else; its result becomes the
/// request's `con_cls`, so the target is kept exactly as sent (MHD decodes its own copy).
let requestStarted:
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?
    ) -> UnsafeMutableRawPointer? = { daemonState, uri, _ in
        guard let daemonState else { return nil }
        let state = Unmanaged<DaemonState>.fromOpaque(daemonState).takeUnretainedValue()
        state.requestsInFlight.add(1, ordering: .relaxed)
        let target: [UInt8] =
            if let uri { Array(UnsafeRawBufferPointer(start: uri, count: strlen(uri))) } else { [] }
        return Unmanaged.passRetained(PendingRequest(target: target)).toOpaque()
    }

/// Releases the request's state once its response has been sent or the connection failed.
let requestCompleted:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        MHD_RequestTerminationCode
    ) -> Void = { daemonState, _, pending, _ in
        guard let pending, let request = pending.pointee else { return }
        Unmanaged<PendingRequest>.fromOpaque(request).release()
        pending.pointee = nil
        if let daemonState {
            Unmanaged<DaemonState>.fromOpaque(daemonState).takeUnretainedValue()
                .requestsInFlight.subtract(1, ordering: .relaxed)
        }
    }

/// The access handler: called once when the headers are in, once per body chunk,
/// and once more when the body is complete, which is when the response is queued.
let handleRequest: MHD_AccessHandlerCallback = {
    daemonState, connection, _, method, version, uploadData, uploadSize, pending in
    guard let daemonState, let connection, let method, let version, let uploadSize,
        let pending, let requestPointer = pending.pointee
    else { return .NO }
    let state = Unmanaged<DaemonState>.fromOpaque(daemonState).takeUnretainedValue()
    let request = Unmanaged<PendingRequest>.fromOpaque(requestPointer).takeUnretainedValue()
    let limits = state.configuration

    if !request.headersRead {
        request.headersRead = true
        request.method = HTTPMethod(rawValue: String(cString: method))
        var headerBytes = 0
        request.headers = readHeaders(connection, totalBytes: &headerBytes)
        // Refusals known from the headers are answered at once; the connection closes.
        if request.target.count > limits.maxRequestTargetBytes {
            return queue(.plain(.uriTooLong), on: connection)
        }
        if headerBytes > limits.maxHeaderBytes {
            return queue(.plain(.requestHeaderFieldsTooLarge), on: connection)
        }
        if HeaderValidation.isMalformed(request.headers, version: String(cString: version)) {
            return queue(.plain(.badRequest), on: connection)
        }
        if let length = request.headers["Content-Length"].flatMap({ Int($0) }),
            length > limits.maxBodyBytes
        {
            return queue(.plain(.contentTooLarge), on: connection)
        }
        // Returning without a response lets MHD keep the connection alive.
        return .YES
    }

    if uploadSize.pointee > 0 {
        let size = uploadSize.pointee
        uploadSize.pointee = 0
        if request.rejection == nil, let uploadData {
            if request.body.count + size > limits.maxBodyBytes {
                request.rejection = .contentTooLarge
                request.body = []
            } else {
                request.body.append(
                    contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            }
        }
        return .YES
    }

    if let rejection = request.rejection {
        return queue(.plain(rejection), on: connection)
    }
    // Called again after the responder's task resumed the connection: its answer.
    if let deferred = request.deferred {
        guard let response = deferred.take() else { return .YES }
        return queue(response, on: connection)
    }
    var httpRequest = HTTPRequest(
        method: request.method, target: request.target, headers: request.headers,
        body: request.body)
    httpRequest.peer = cmicrohttpd_client_address(connection).flatMap(PeerAddress.init)
    return respond(to: httpRequest, on: connection, request: request, state: state)
}

/// Runs the responder in a task, inline until it first waits. An answer by then is
/// queued at once; otherwise the connection is suspended, this thread goes back to its
/// other connections, and the task resumes the connection with the answer.
private func respond(
    to httpRequest: HTTPRequest, on connection: OpaquePointer, request: PendingRequest,
    state: DaemonState
) -> MHD_Result {
    let deferred = DeferredResponse(connection: connection)
    guard state.deferred.begin(deferred) else {
        return queue(.plain(.serviceUnavailable), on: connection)
    }
    request.deferred = deferred
    let responder = state.responder
    state.executor.start {
        let response = await responder.respond(to: httpRequest, context: RequestContext())
        deferred.answer(response)
        state.deferred.end(deferred)
    }
    guard let response = deferred.responseOrSuspend() else { return .YES }
    return queue(response, on: connection)
}

private final class HeaderCollector {
    var headers = HTTPHeaders()
    var totalBytes = 0
}

private func readHeaders(_ connection: OpaquePointer, totalBytes: inout Int) -> HTTPHeaders {
    let collector = HeaderCollector()
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values_n(
            connection, .HEADER_KIND,
            { collectorPointer, _, key, keyLength, value, valueLength in
                guard let collectorPointer, let key else { return .YES }
                let collector = Unmanaged<HeaderCollector>.fromOpaque(collectorPointer)
                    .takeUnretainedValue()
                let name = String(
                    decoding: UnsafeRawBufferPointer(start: key, count: keyLength), as: UTF8.self)
                let text =
                    value.map {
                        String(
                            decoding: UnsafeRawBufferPointer(start: $0, count: valueLength),
                            as: UTF8.self)
                    } ?? ""
                collector.headers.add(name, text)
                collector.totalBytes += keyLength + valueLength + 4
                return .YES
            }, Unmanaged.passUnretained(collector).toOpaque())
    }
    totalBytes = collector.totalBytes
    return collector.headers
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let mhdResponse = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
            .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers {
        _ = MHD_add_response_header(mhdResponse, name, value)
    }
    return MHD_queue_response(connection, UInt32(response.status.rawValue), mhdResponse)
}
