import Telemetry

/// Times each request and counts it under its route, method and status. The route is
/// the one the ``Router`` matched (``HTTPResponse/route``); a request none matched
/// counts as `unmatched`.
///
/// ```swift
/// router.add(middleware: RequestMetrics().middleware)
/// ```
public struct MetricsMiddleware: HTTPMiddleware {
    let metrics: RequestMetrics

    public func respond(
        to request: HTTPRequest, context: RequestContext, next: Next
    ) async -> HTTPResponse {
        let start = MonotonicTime.nanoseconds
        let response = await next.respond(to: request, context: context)
        (response.route ?? metrics.unmatched).record(
            method: request.method, status: response.status,
            nanoseconds: MonotonicTime.nanoseconds - start)
        return response
    }
}
