import Telemetry

/// One route's requests, counted by method and status, and their latency: made once
/// when the route is registered, so a request finds its counters without a lookup, a
/// lock or an allocation.
///
/// ```swift
/// let statistics = RouteStatistics(route: "/api/v1/notes")
/// statistics.record(method: .get, status: .ok, nanoseconds: 2_000_000)
/// ```
public final class RouteStatistics: Sendable {
    /// The route's label: its path pattern as registered, e.g. `/api/v1/notes/{id}`.
    public let route: String
    let counts = AtomicCounters(count: methodLabels.count * statusLabels.count)
    public let latency = Histogram.latency

    public init(route: String) {
        self.route = route
    }

    /// Counts one answer that took `nanoseconds` (``MonotonicTime``).
    @inline(__always)
    public func record(method: HTTPMethod, status: HTTPStatus, nanoseconds: Int) {
        counts.add(
            1, at: Self.methodIndex(method) * Self.statusLabels.count + Self.statusIndex(status))
        latency.observe(nanoseconds)
    }

    /// Requests so far with `method` and `status`.
    public func requests(method: HTTPMethod, status: HTTPStatus) -> Int {
        counts.load(
            at: Self.methodIndex(method) * Self.statusLabels.count + Self.statusIndex(status))
    }

    /// Every (method, status, count) with a count above zero.
    func nonZeroCounts() -> [(method: String, status: String, count: Int)] {
        var result: [(String, String, Int)] = []
        for (methodIndex, method) in Self.methodLabels.enumerated() {
            for (statusIndex, status) in Self.statusLabels.enumerated() {
                let count = counts.load(at: methodIndex * Self.statusLabels.count + statusIndex)
                if count > 0 { result.append((method, status, count)) }
            }
        }
        return result
    }

    // Methods and statuses are labels from small fixed sets, so that a client cannot
    // create series at will: an unknown method is "other", an uncommon status its class.
    static let methodLabels = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"]
    static let knownStatuses = [
        200, 201, 202, 204, 206, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 405, 406, 408,
        409, 410, 411, 412, 413, 414, 415, 416, 422, 426, 428, 429, 431, 500, 501, 502, 503, 504,
    ]
    static let statusLabels = knownStatuses.map(String.init) + ["1xx", "2xx", "3xx", "4xx", "5xx"]
    private static let statusIndexes: [Int8] = {
        var table = [Int8](repeating: -1, count: 600)
        for (index, status) in knownStatuses.enumerated() { table[status] = Int8(index) }
        return table
    }()

    @inline(__always)
    static func statusIndex(_ status: HTTPStatus) -> Int {
        let code = status.rawValue
        guard code >= 100, code < 600 else { return knownStatuses.count + 4 }
        let known = statusIndexes[code]
        return known >= 0 ? Int(known) : knownStatuses.count + code / 100 - 1
    }

    @inline(__always)
    static func methodIndex(_ method: HTTPMethod) -> Int {
        switch method.rawValue {
        case "GET": 0
        case "HEAD": 1
        case "POST": 2
        case "PUT": 3
        case "PATCH": 4
        case "DELETE": 5
        case "OPTIONS": 6
        default: 7
        }
    }
}
