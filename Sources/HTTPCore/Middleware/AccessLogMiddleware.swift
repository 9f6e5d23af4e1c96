import ServerLogging
import Telemetry

/// Records one access-log entry per request (see ``AccessLogEntry``) into an
/// ``AccessLogWriter``, which formats and writes it on its own thread. Add it after
/// ``RequestIDMiddleware``, so that the entry carries the request's ID.
///
/// ```swift
/// router.add(middleware: RequestIDMiddleware(logger: logger))
/// router.add(middleware: AccessLogMiddleware(writer: try AccessLogWriter(destination: .standardOutput)))
/// ```
public struct AccessLogMiddleware: HTTPMiddleware {
    let writer: AccessLogWriter

    public init(writer: AccessLogWriter) {
        self.writer = writer
    }

    public func respond(
        to request: HTTPRequest, context: RequestContext, next: Next
    ) async -> HTTPResponse {
        let start = MonotonicTime.nanoseconds
        let response = await next.respond(to: request, context: context)
        writer.record(
            AccessLogEntry(
                time: LogText.nowMilliseconds, clientAddress: request.clientAddress,
                method: request.method.rawValue, path: request.path, rawQuery: request.rawQuery,
                status: response.status.rawValue,
                bytes: response.stream == nil ? response.body.count : nil,
                duration: .nanoseconds(MonotonicTime.nanoseconds - start),
                requestID: context.requestID ?? response.headers[RequestIDMiddleware.headerName],
                referer: request.headers["Referer"], userAgent: request.headers["User-Agent"]))
        return response
    }
}
