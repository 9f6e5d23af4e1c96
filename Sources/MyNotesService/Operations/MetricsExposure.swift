/// Where `/metrics` is served. Off the public listener by default: the figures tell an
/// attacker much about the server.
///
/// ```swift
/// var operations = OperationsConfiguration()
/// operations.metrics = .listener(host: "127.0.0.1", port: 9464)
/// ```
public enum MetricsExposure: Sendable, Equatable {
    /// Not served.
    case off
    /// On a listener of its own (`--metrics-listen HOST:PORT`), with `/healthz` and
    /// `/readyz`; give port 0 for any free one.
    case listener(host: String, port: Int)
    /// On the main listener, to requests bearing `Authorization: Bearer <token>`.
    case mainListener(token: String)
}
