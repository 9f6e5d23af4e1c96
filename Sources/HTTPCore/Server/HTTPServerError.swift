/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, CustomStringConvertible, Equatable {
    case cannotResolve(host: String)
    case cannotBind(host: String, port: Int, reason: String)
    case daemonFailed
    /// HTTPS could not be set up: a certificate or key unreadable, or not a pair.
    case tls(reason: String)

    public var description: String {
        switch self {
        case .cannotResolve(let host): "cannot resolve host '\(host)'"
        case .cannotBind(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason)"
        case .daemonFailed: "the HTTP server could not start"
        case .tls(let reason): "TLS: \(reason)"
        }
    }
}
