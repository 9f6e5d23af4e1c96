import CMicroHTTPD
import Glibc

// libmicrohttpd calls these from its worker threads. They are free functions, not
// closures, so that no actor isolation is inferred for them.

/// Decides whether to take a new connection: none while shutting down or at the
/// connection limit (libmicrohttpd then closes it at once; the per-address limit is its
/// own `MHD_OPTION_PER_IP_CONNECTION_LIMIT`).
let acceptConnection: MHD_AcceptPolicyCallback = { daemonState, _, _ in
    guard let daemonState else { return .NO }
    let state = Unmanaged<DaemonState>.fromOpaque(daemonState).takeUnretainedValue()
    if state.draining.load(ordering: .acquiring)
        || state.openConnections.load(ordering: .relaxed) >= state.configuration.maxConnections
    {
        state.refusedConnections.add(1, ordering: .relaxed)  // issue 13: a metric
        return .NO
    }
    return .YES
}

/// A connection opened or closed: counted, and watched for request deadlines. Its
/// ``ConnectionRecord`` lives in the connection's socket context in between.
let connectionChanged:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        MHD_ConnectionNotificationCode
    ) -> Void = { daemonState, connection, socketContext, change in
        guard let daemonState, let connection, let socketContext else { return }
        let state = Unmanaged<DaemonState>.fromOpaque(daemonState).takeUnretainedValue()
        if change == .CONNECTION_NOTIFY_STARTED {
            state.openConnections.add(1, ordering: .relaxed)
            let record = ConnectionRecord(
                descriptor: cmicrohttpd_connection_descriptor(connection),
                deadline: state.watchdog.now + state.watchdog.headTimeout)
            state.watchdog.register(record)
            socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        } else if let context = socketContext.pointee {
            let record = Unmanaged<ConnectionRecord>.fromOpaque(context).takeRetainedValue()
            state.watchdog.unregister(record)
            // libmicrohttpd closes the socket after this; a refused client may still be
            // sending, and closing with its bytes unread would reset the connection.
            if record.lingers.load(ordering: .relaxed) {
                state.lingeringCloser.adopt(record.descriptor)
            }
            socketContext.pointee = nil
            state.openConnections.subtract(1, ordering: .relaxed)
        }
    }

/// Called with the raw request target before anything else; its result becomes the
/// request's `con_cls`, so the target is kept exactly as sent (MHD decodes its own copy).
let requestStarted:
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?
    ) -> UnsafeMutableRawPointer? = { daemonState, uri, connection in
        guard let daemonState else { return nil }
        let state = Unmanaged<DaemonState>.fromOpaque(daemonState).takeUnretainedValue()
        state.requestsInFlight.add(1, ordering: .relaxed)
        let target: [UInt8] =
            if let uri { Array(UnsafeRawBufferPointer(start: uri, count: strlen(uri))) } else { [] }
        let record = connection.flatMap(cmicrohttpd_socket_context).map {
            Unmanaged<ConnectionRecord>.fromOpaque($0).takeUnretainedValue()
        }
        return Unmanaged.passRetained(PendingRequest(target: target, connection: record))
            .toOpaque()
    }

/// Releases the request's state once its response has been sent or the connection failed.
let requestCompleted:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        MHD_RequestTerminationCode
    ) -> Void = { daemonState, _, pending, _ in
        guard let pending, let requestPointer = pending.pointee else { return }
        let request = Unmanaged<PendingRequest>.fromOpaque(requestPointer).takeRetainedValue()
        pending.pointee = nil
        if let daemonState {
            let state = Unmanaged<DaemonState>.fromOpaque(daemonState).takeUnretainedValue()
            // The next request's head is due after the idle time and the head timeout.
            request.connection?.deadline.store(
                state.watchdog.now + state.watchdog.nextHeadTimeout, ordering: .relaxed)
            state.requestsInFlight.subtract(1, ordering: .relaxed)
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
        request.connection?.deadline.store(
            state.watchdog.now + state.watchdog.bodyTimeout, ordering: .relaxed)
        request.method = HTTPMethod(rawValue: String(cString: method))
        var headerBytes = 0
        request.headers = readHeaders(connection, totalBytes: &headerBytes)
        // Refusals known from the headers are answered at once, before any body is read
        // (a client that sent `Expect: 100-continue` gets no `100 Continue`). The
        // connection then closes, lingering: its client may be sending a body still.
        let refusal: HTTPStatus? =
            if request.target.count > limits.maxRequestTargetBytes {
                .uriTooLong
            } else if headerBytes > limits.maxHeaderBytes {
                .requestHeaderFieldsTooLarge
            } else if HeaderValidation.isMalformed(
                request.headers, version: String(cString: version))
            {
                .badRequest
            } else if !limits.allowedHosts.admits(request.headers) {
                .misdirectedRequest
            } else if let length = request.headers["Content-Length"].flatMap({ Int($0) }),
                length > limits.maxBodyBytes
            {
                .contentTooLarge
            } else {
                nil
            }
        if let refusal {
            request.connection?.lingers.store(true, ordering: .relaxed)
            // Closed in every case: what follows a refused head is not a request to run.
            var response = HTTPResponse.plain(refusal)
            response.headers["Connection"] = "close"
            return queue(response, on: connection, state: state)
        }
        // Returning without a response lets MHD keep the connection alive.
        return .YES
    }

    if uploadSize.pointee > 0 {
        let size = uploadSize.pointee
        uploadSize.pointee = 0
        request.received += size
        if request.rejection == nil, let uploadData {
            if request.body.count + size > limits.maxBodyBytes {
                request.rejection = .contentTooLarge
                request.body = []
            } else {
                request.body.append(
                    contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            }
        }
        // A refused body is thrown away up to a bound; past it the connection closes.
        if request.rejection != nil,
            request.received > limits.maxBodyBytes + limits.maxDiscardedBodyBytes
        {
            return .NO
        }
        return .YES
    }

    request.connection?.deadline.store(ConnectionRecord.noDeadline, ordering: .relaxed)
    if let rejection = request.rejection {
        return queue(.plain(rejection), on: connection, state: state)
    }
    // Called again after the responder's task resumed the connection: its answer.
    if let deferred = request.deferred {
        guard let response = deferred.take() else { return .YES }
        return queue(response, on: connection, state: state)
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
        return queue(.plain(.serviceUnavailable), on: connection, state: state)
    }
    request.deferred = deferred
    let responder = state.responder
    state.executor.start {
        let response = await responder.respond(to: httpRequest, context: RequestContext())
        deferred.answer(response)
        state.deferred.end(deferred)
    }
    guard let response = deferred.responseOrSuspend() else { return .YES }
    return queue(response, on: connection, state: state)
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

private func queue(
    _ response: HTTPResponse, on connection: OpaquePointer, state: DaemonState
) -> MHD_Result {
    let mhdResponse =
        if let stream = response.stream {
            StreamedResponse(body: stream, connection: connection, state: state).makeResponse()
        } else {
            response.body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                    .RESPMEM_MUST_COPY)
            }
        }
    guard let mhdResponse else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers {
        _ = MHD_add_response_header(mhdResponse, name, value)
    }
    for (name, value) in HTTPResponse.alwaysSentFields where response.headers[name] == nil {
        _ = MHD_add_response_header(mhdResponse, name, value)
    }
    return MHD_queue_response(connection, UInt32(response.status.rawValue), mhdResponse)
}
