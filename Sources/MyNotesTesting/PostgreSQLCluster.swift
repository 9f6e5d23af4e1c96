import Foundation
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// A private PostgreSQL cluster for tests: `initdb` into a temporary folder and `pg_ctl`
/// on a free loopback port, run as the `postgres` user when the tests run as root
/// (PostgreSQL refuses to run as root). One cluster serves the whole test process; each
/// test makes a database of its own with ``createDatabase()``. A watchdog process stops
/// the cluster and deletes its folder once the test process is gone, however it ended.
///
/// With `MYNOTES_TEST_POSTGRES` set (a superuser's `postgres://` URI, no database), the
/// tests use that server instead of starting one.
///
/// ```swift
/// guard let cluster = try PostgreSQLCluster.shared() else { return }  // no PostgreSQL here
/// let store = try PostgreSQLNoteStore(conninfo: try cluster.createDatabase())
/// ```
public final class PostgreSQLCluster: Sendable {
    /// Where Debian's `postgresql-15` puts `initdb`, `pg_ctl` and `psql`
    /// (`MYNOTES_POSTGRES_BIN` overrides it).
    public static let binaries =
        ProcessInfo.processInfo.environment["MYNOTES_POSTGRES_BIN"]
        ?? "/usr/lib/postgresql/15/bin"

    /// Why PostgreSQL tests cannot run here, or `nil` when they can.
    public static var unavailableReason: String? {
        let environment = ProcessInfo.processInfo.environment
        // The quick tier leaves PostgreSQL out even where it is installed: starting a
        // private cluster per test process costs more than the rest of a unit test run.
        if environment["MYNOTES_TEST_SKIP_POSTGRESQL"] != nil {
            return "MYNOTES_TEST_SKIP_POSTGRESQL is set"
        }
        if environment["MYNOTES_TEST_POSTGRES"] != nil { return nil }
        for tool in ["initdb", "pg_ctl", "psql"]
        where access("\(binaries)/\(tool)", X_OK) != 0 {
            return "PostgreSQL's \(tool) is not in \(binaries): install the postgresql package"
                + " (scripts/install-deps.sh --with-postgresql) or set MYNOTES_POSTGRES_BIN"
        }
        return nil
    }

    public static var isAvailable: Bool { unavailableReason == nil }

    /// The superuser's URI without a database, e.g. `postgres://postgres@127.0.0.1:5433`.
    public let serverURI: String
    public let port: Int
    /// The data folder, `nil` for a server given by `MYNOTES_TEST_POSTGRES`.
    let directory: String?
    private let names = Lock(0)
    private let sharedDatabase = Lock<String?>(nil)

    private static let sharedCluster = Lock<Result<PostgreSQLCluster, any Error>?>(nil)

    /// The test process's cluster, started on first use; `nil` when PostgreSQL is not
    /// installed (see ``unavailableReason``).
    public static func shared() throws -> PostgreSQLCluster? {
        guard isAvailable else { return nil }
        return try sharedCluster.withLock { shared in
            if shared == nil { shared = Result { try PostgreSQLCluster() } }
            return try shared!.get()
        }
    }

    /// A cluster of the caller's own, for a test that restarts or stops its server (the
    /// shared one serves every other test meanwhile). Stop it with ``stop()``.
    public static func startPrivate() throws -> PostgreSQLCluster {
        try PostgreSQLCluster(usingGivenServer: false)
    }

    private init(usingGivenServer: Bool = true) throws {
        if usingGivenServer,
            let given = ProcessInfo.processInfo.environment["MYNOTES_TEST_POSTGRES"]
        {
            serverURI = given.hasSuffix("/") ? String(given.dropLast()) : given
            port = Int(given.split(separator: ":").last.flatMap { Int($0) } ?? 5432)
            directory = nil
            return
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("mynotes-postgres-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true)
        directory = folder
        try Self.handToServerUser(folder)
        try Self.asServerUser(
            "initdb",
            [
                "-D", "\(folder)/data", "-A", "trust", "-U", "postgres", "-E", "UTF8",
                "--locale=C.UTF-8", "--no-sync",
            ], timeout: .seconds(120))
        Self.watch(folder)
        var started: Int?
        var lastFailure: (any Error)?
        for _ in 0..<5 where started == nil {
            let candidate = try Self.freePort()
            do {
                try Self.asServerUser(
                    "pg_ctl",
                    [
                        "-D", "\(folder)/data", "-l", "\(folder)/server.log", "-w", "-t", "60",
                        "-o", Self.serverOptions(port: candidate, folder: folder), "start",
                    ],
                    timeout: .seconds(90))
                started = candidate
            } catch {
                lastFailure = error
            }
        }
        guard let started else { throw lastFailure! }
        port = started
        serverURI = "postgres://postgres@127.0.0.1:\(started)"
    }

    /// A new, empty database; its URI. Each test takes one, so tests never share data.
    public func createDatabase() throws -> String {
        let name = names.withLock { count -> String in
            count += 1
            return "mynotes_\(getpid())_\(count)"
        }
        try Self.run(
            "\(Self.binaries)/psql",
            [
                "\(serverURI)/postgres", "-v", "ON_ERROR_STOP=1", "-q", "-c",
                "CREATE DATABASE \(name)",
            ],
            timeout: .seconds(60))
        return "\(serverURI)/\(name)"
    }

    /// A new, empty schema in the database all schemas share; the URI that makes it the
    /// connection's `search_path`, so a store puts its tables there. Much cheaper than a
    /// database (no copy of the template, no checkpoint): for the many tests that only need
    /// an empty store.
    public func createSchema() throws -> String {
        let shared = try sharedDatabase.withLock { shared -> String in
            if let shared { return shared }
            let created = try createDatabase()
            shared = created
            return created
        }
        let name = names.withLock { count -> String in
            count += 1
            return "store_\(count)"
        }
        _ = try psql("CREATE SCHEMA \(name)", on: shared)
        return "\(shared)?options=-csearch_path%3D\(name)"
    }

    /// Runs SQL as the superuser on `database` (a URI from ``createDatabase()``) with psql,
    /// and returns what it printed, unaligned and without headers.
    public func psql(_ sql: String, on database: String) throws -> String {
        try Self.run(
            "\(Self.binaries)/psql",
            [database, "-v", "ON_ERROR_STOP=1", "-q", "-A", "-t", "-c", sql],
            timeout: .seconds(60))
    }

    /// Restarts the server (`pg_ctl restart -m fast`): every connection is closed, as in a
    /// failover or an upgrade. Only for a cluster this process started.
    public func restart() throws {
        guard let directory else {
            throw PostgreSQLClusterError("MYNOTES_TEST_POSTGRES is not restartable")
        }
        try Self.asServerUser(
            "pg_ctl",
            [
                "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-t", "60", "-m",
                "fast", "-o", Self.serverOptions(port: port, folder: directory), "restart",
            ],
            timeout: .seconds(90))
    }

    /// Stops the server (`pg_ctl stop -m fast`) and deletes its folder. Only for a cluster
    /// from ``startPrivate()``.
    public func stop() throws {
        guard let directory else { return }
        try stopServer()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops the server and keeps its data, until ``startServer()``: a database that is down.
    public func stopServer() throws {
        guard let directory else { throw PostgreSQLClusterError("not a cluster of this process") }
        try Self.asServerUser(
            "pg_ctl", ["-D", "\(directory)/data", "-w", "-t", "60", "-m", "fast", "stop"],
            timeout: .seconds(90))
    }

    /// Starts the server stopped by ``stopServer()`` again, on the same port.
    public func startServer() throws {
        guard let directory else { throw PostgreSQLClusterError("not a cluster of this process") }
        try Self.asServerUser(
            "pg_ctl",
            [
                "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-t", "60",
                "-o", Self.serverOptions(port: port, folder: directory), "start",
            ],
            timeout: .seconds(90))
    }

    private static func serverOptions(port: Int, folder: String) -> String {
        // No fsync: what the tests check of durability is that a write is acknowledged only
        // after its commit (the store's synchronous_commit), and that survives the server
        // processes the tests kill; only the machine losing power would need the fsync.
        "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c max_connections=300"
            + " -c shared_buffers=32MB -c fsync=off -c full_page_writes=off"
    }

    /// Stops the cluster and deletes its folder once this process has ended. A shell loop
    /// polls once a second; nothing in the tests waits for it.
    private static func watch(_ folder: String) {
        let stop = serverUserPrefix.map { "\($0) " }.joined()
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            \(stop)\(binaries)/pg_ctl -D '\(folder)/data' -m immediate stop >/dev/null 2>&1
            rm -rf '\(folder)'
            """
        let watchdog = ChildProcess()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = ["-c", script]
        try? watchdog.run()
    }

    /// `runuser -u postgres --` when running as root (PostgreSQL refuses root).
    private static var serverUserPrefix: [String] {
        getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
    }

    private static func handToServerUser(_ folder: String) throws {
        guard getuid() == 0 else { return }
        guard let user = getpwnam("postgres") else {
            throw PostgreSQLClusterError(
                "running as root, and there is no postgres user to run PostgreSQL as")
        }
        guard chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
            throw PostgreSQLClusterError("cannot hand \(folder) to postgres: errno \(errno)")
        }
    }

    private static func asServerUser(
        _ tool: String, _ arguments: [String], timeout: Duration
    ) throws {
        let prefix = serverUserPrefix
        if prefix.isEmpty {
            _ = try run("\(binaries)/\(tool)", arguments, timeout: timeout)
        } else {
            _ = try run(
                prefix[0], Array(prefix.dropFirst()) + ["\(binaries)/\(tool)"] + arguments,
                timeout: timeout)
        }
    }

    /// Runs a program to its end; its standard output, or an error with everything it said.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], timeout: Duration) throws -> String {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: path)
        child.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PGCONNECT_TIMEOUT"] = "10"
        child.environment = environment
        let output = Pipe()
        let errors = Pipe()
        child.standardOutput = output
        child.standardError = errors
        try child.run()
        // Read both to their end while the child runs: a full pipe would block it.
        let collected = Lock<(Data, Data)>((Data(), Data()))
        let readers = DispatchGroup()
        for (index, pipe) in [output, errors].enumerated() {
            DispatchQueue.global().async(group: readers) {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.withLock { index == 0 ? ($0.0 = data) : ($0.1 = data) }
            }
        }
        guard child.waitUntilExit(timeout: timeout) else {
            kill(child.processIdentifier, SIGKILL)
            throw PostgreSQLClusterError(
                "\(path) \(arguments.joined(separator: " ")) took over \(timeout)")
        }
        readers.wait()
        let (standardOutput, standardError) = collected.withLock { $0 }
        let text = String(decoding: standardOutput, as: UTF8.self)
        guard child.terminationStatus == 0 else {
            throw PostgreSQLClusterError(
                "\((path as NSString).lastPathComponent) failed (status \(child.terminationStatus)): "
                    + String(decoding: standardError, as: UTF8.self) + text)
        }
        return text
    }

    /// A loopback port nothing listens on now.
    public static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw PostgreSQLClusterError("socket: errno \(errno)") }
        defer { close(socket) }
        let port = LoopbackAddress.bind(socket)
        guard port > 0 else { throw PostgreSQLClusterError("bind: errno \(errno)") }
        return port
    }
}
