import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// haproxy in front of server processes, as `scripts/serve-cluster.sh` runs it: round
/// robin, a health check every 200 ms (`GET /api/v1/openapi.json`, answered without the
/// database), a server out after two failed checks, and a request whose connection a
/// dead server refuses sent to another one.
///
/// ```swift
/// let balancer = try LoadBalancerProcess(servers: [a.port, b.port])
/// // HTTP to balancer.port …
/// balancer.stop()
/// ```
public final class LoadBalancerProcess {
    /// Where Debian's haproxy is.
    public static let executable = "/usr/sbin/haproxy"

    /// Why no balancer can run here, or `nil`.
    public static var unavailableReason: String? {
        access(executable, X_OK) == 0
            ? nil : "haproxy is not installed (scripts/install-deps.sh --with-postgresql)"
    }

    public let port: Int
    private let process = ChildProcess()
    private let directory: URL

    public init(servers: [Int]) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mynotes-haproxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try PostgreSQLCluster.freePort()
        let configuration = directory.appendingPathComponent("haproxy.cfg")
        try Self.configuration(port: port, servers: servers)
            .write(to: configuration, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-db", "-f", configuration.path]
        try process.run()
        // Up once it accepts connections and both checks have had a chance to pass.
        try Poll.until("haproxy to accept connections on port \(port)", timeout: .seconds(30)) {
            guard process.isRunning else {
                throw PostgreSQLClusterError("haproxy exited with \(process.terminationStatus)")
            }
            return (try? RawHTTPClient(port: port)) != nil
        }
    }

    /// The haproxy.cfg that `scripts/serve-cluster.sh` writes too.
    public static func configuration(port: Int, servers: [Int]) -> String {
        """
        global
            maxconn 8192
        defaults
            mode http
            timeout connect 2s
            timeout client 60s
            timeout server 60s
            # A refused connection (a dead server) is retried on another server; a request
            # already sent is never sent twice.
            retries 3
            option redispatch
        frontend mynotes
            bind 127.0.0.1:\(port)
            default_backend servers
        backend servers
            balance roundrobin
            option httpchk GET /api/v1/openapi.json
            http-check expect status 200
            default-server inter 200ms fall 2 rise 1
        \(servers.enumerated().map { "    server s\($0.offset + 1) 127.0.0.1:\($0.element) check" }.joined(separator: "\n"))

        """
    }

    public func stop() {
        kill(process.processIdentifier, SIGTERM)
        if !process.waitUntilExit(timeout: .seconds(10)) {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        if process.isRunning { stop() }
    }
}
