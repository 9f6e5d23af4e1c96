import HTTPCore
import Telemetry

/// `GET /metrics`: the registry in the Prometheus text format, to anyone (on the metrics
/// listener) or only to a request bearing `token` (on the main listener); others get 401
/// with no hint of what the page holds.
///
/// ```swift
/// MetricsHandler(registry: registry, token: "s3cret").register(on: &router)
/// ```
struct MetricsHandler {
    static let path = "/metrics"

    let registry: MetricsRegistry
    /// The bearer token required, or `nil` for none.
    let token: String?

    func register(on router: inout Router) {
        let registry = self.registry
        let expected = token.map { Array($0.utf8) }
        router.on(Self.path, methods: [.get, .head]) { request, _ in
            if let expected {
                let presented = BearerToken(authorization: request.headers["Authorization"])
                guard let presented, Self.equal(Array(presented.text.utf8), expected) else {
                    var response = HTTPResponse.plain(.unauthorized)
                    response.headers["WWW-Authenticate"] = #"Bearer realm="metrics""#
                    return response
                }
            }
            var response = HTTPResponse(
                status: .ok, contentType: MetricsRegistry.contentType,
                body: Array(registry.exposition().utf8))
            response.headers["Cache-Control"] = "no-store"
            return response
        }
    }

    /// Compares in time that depends only on the lengths, not on where they differ.
    static func equal(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
