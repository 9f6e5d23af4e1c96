import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// haproxy in front of server processes, with the configuration `scripts/serve-cluster.sh`
/// runs, `deploy/haproxy.cfg`: round robin, a health check every 200 ms (`GET /readyz`,
/// which turns 503 while a server drains), a server out after two failed checks, and a
/// request whose connection a dead server refuses sent to another one.
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
        try Self.configuration(servers: servers)
            .write(to: configuration, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-db", "-f", configuration.path]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "MYNOTES_BALANCER_PORT": String(port)
        ]) { $1 }
        try process.run()
        // Up once it accepts connections and both checks have had a chance to pass.
        try Poll.until("haproxy to accept connections on port \(port)", timeout: .seconds(30)) {
            guard process.isRunning else {
                throw PostgreSQLClusterError("haproxy exited with \(process.terminationStatus)")
            }
            return (try? RawHTTPClient(port: port)) != nil
        }
    }

    /// `deploy/haproxy.cfg`, the file `scripts/serve-cluster.sh` reads too.
    public static let template = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/haproxy.cfg")

    /// The template with one `server` line per port appended to its last section, the
    /// backend; haproxy takes the balancer's port from `MYNOTES_BALANCER_PORT`.
    public static func configuration(servers: [Int]) throws -> String {
        var text = try String(contentsOf: template, encoding: .utf8)
        if !text.hasSuffix("\n") { text += "\n" }
        for (index, port) in servers.enumerated() {
            text += "    server s\(index + 1) 127.0.0.1:\(port) check\n"
        }
        return text
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
