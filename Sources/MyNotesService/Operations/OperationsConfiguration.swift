import HTTPCore

/// What the service offers the person who runs it: metrics, an access log, and how a
/// graceful shutdown drains. `/healthz` and `/readyz` are always on the main listener.
///
/// ```swift
/// var operations = OperationsConfiguration()
/// operations.metrics = .mainListener(token: "s3cret")
/// operations.accessLog = try AccessLogWriter(destination: .standardOutput)
/// operations.drainDelay = .seconds(5)
/// ```
public struct OperationsConfiguration: Sendable {
    public var metrics: MetricsExposure = .off
    /// Where each request's access-log entry goes; `nil` for none. The application
    /// closes it on shutdown.
    public var accessLog: AccessLogWriter?
    /// Set when the server speaks TLS: the browser app's answers then carry
    /// `Strict-Transport-Security` with this `max-age`.
    public var strictTransportSecurity: Duration?
    /// How long `/readyz` answers 503 before the server stops accepting connections, so
    /// that a load balancer has noticed (its health-check interval, a few seconds).
    public var drainDelay: Duration = .zero

    public init() {}
}
