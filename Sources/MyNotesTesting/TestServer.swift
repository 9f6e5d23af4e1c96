import BoundedExecution
import Foundation
import HTTPCore
import Locking
import MyNotesDomain
import MyNotesService
import PostgreSQLStore
import SQLiteStore
import Secrets
import ServerLogging
import StorageSupport

/// The real MyNotes service, in this process, over a new SQLite database in a temporary
/// folder that is removed on shutdown (or, with `MYNOTES_TEST_STORE=postgresql`, a new
/// database on the test process's PostgreSQL cluster, see ``PostgreSQLCluster``, so that
/// the rule suites run against the PostgreSQL store too). Its router answers in-process requests at once
/// (``connect(_:)`` with ``TestTransport/inProcess``); it listens on a free loopback port
/// only from the first use of ``port`` or ``baseURL``, so rule tests never open a socket.
///
/// Passwords are hashed at ``PasswordHasher/testing`` cost: suites create hundreds of
/// accounts, and the production cost is tested where the real binary runs.
///
/// ```swift
/// let server = try TestServer(.init(auth: .token))
/// let token = try server.createAccount(email: "a@example.com")
/// let answer = try server.connect(.inProcess).send("GET /nowhere HTTP/1.1\r\nHost: t\r\n\r\n")
/// // or talk HTTP to server.baseURL …
/// server.shutdown()
/// ```
public final class TestServer: Sendable {
    /// Which store the service runs on.
    public enum Backend: Sendable {
        /// SQLite, or PostgreSQL when `MYNOTES_TEST_STORE=postgresql`.
        case chosenByEnvironment
        /// SQLite always: for tests that read or write the database file themselves.
        case sqlite
    }

    public struct Options: Sendable {
        public var backend: Backend
        public var auth: AuthenticationMode
        /// Notes one account may hold, 0 for no limit.
        public var quota: Int
        /// Bytes of content one account may hold, 0 for no limit.
        public var quotaBytes: Int
        public var maxBodyBytes: Int
        public var threads: Int
        public var signup: SignupPolicy
        public var signInLimits: SignInLimits
        /// Store calls that fail as a broken database does (see ``FailingStore``).
        public var failing: Set<FailingStore.Step>
        /// The clock of the service's time-based rules; a ``ManualClock`` to advance it.
        public var clock: any Clock<Duration>
        /// Where the service logs; a ``LogCapture``'s sink to read the lines back.
        public var logger: Logger
        /// Where the store reads, when not its own executor (the store closes it).
        public var reading: BoundedExecutor?
        /// The password-hashing executor's size.
        public var hashing: ExecutorLimits
        /// Sign-up and sign-in rates; unlimited unless a test is about them, since
        /// every test client comes from 127.0.0.1.
        public var signUpRate: RateLimits
        public var signInRate: RateLimits
        /// How passwords are hashed: ``PasswordHasher/testing`` unless a test measures
        /// what a hash costs.
        public var passwordHasher: PasswordHasher
        /// How long sessions last (on ``clock``).
        public var sessionLifetime: SessionLifetime
        /// The change feed's retention (on ``clock``) and streams' heartbeat and limits.
        public var changeFeed = ChangeFeedConfiguration()

        public init(
            auth: AuthenticationMode = .token, quota: Int = 0, quotaBytes: Int = 0,
            maxBodyBytes: Int = 1 << 20,
            threads: Int = 2, signup: SignupPolicy = .open,
            signInLimits: SignInLimits = SignInLimits(), failing: Set<FailingStore.Step> = [],
            clock: any Clock<Duration> = ContinuousClock(), logger: Logger = .disabled,
            reading: BoundedExecutor? = nil,
            hashing: ExecutorLimits = ServiceConfiguration.defaultHashing,
            signUpRate: RateLimits = .unlimited, signInRate: RateLimits = .unlimited,
            passwordHasher: PasswordHasher = .testing,
            sessionLifetime: SessionLifetime = .standard,
            backend: Backend = .chosenByEnvironment
        ) {
            self.backend = backend
            self.auth = auth
            self.quota = quota
            self.quotaBytes = quotaBytes
            self.maxBodyBytes = maxBodyBytes
            self.threads = threads
            self.signup = signup
            self.signInLimits = signInLimits
            self.failing = failing
            self.clock = clock
            self.logger = logger
            self.reading = reading
            self.hashing = hashing
            self.signUpRate = signUpRate
            self.signInRate = signInRate
            self.passwordHasher = passwordHasher
            self.sessionLifetime = sessionLifetime
        }
    }

    /// The store underneath, which never fails: tests set up their accounts through it.
    public let store: any NoteStore
    public let directory: URL
    /// Every route of the service, over the store (a failing one when asked for).
    public let router: Router
    /// The domain's services over the store the service uses.
    public let services: DomainServices
    /// Where the service hashes passwords (``Options/hashing``).
    public var hashing: BoundedExecutor { services.hashing }
    private let changeStreams: ChangeStreamHub
    /// The store the service uses: ``store``, failing the steps asked for.
    private let serviceStore: FailingStore
    private let passwordHasher: PasswordHasher
    private let configuration: ServerConfiguration
    /// The listening server, once something asked for the port; `nil` after shutdown.
    private let listener = Lock<Listener>(.notStarted)
    /// Runs the store's async calls for synchronous setup (``createAccount(email:)``).
    private let setup = BoundedExecutor(
        name: "test-setup", limits: ExecutorLimits(threads: 1, queueLimit: 1))

    private enum Listener {
        case notStarted
        case listening(HTTPServer)
        case stopped
    }

    public init(_ options: Options = Options()) throws {
        directory = Self.scratch.appendingPathComponent("mynotes-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // A test that gives the store's reader executor is about SQLite's.
        if options.reading == nil, options.backend == .chosenByEnvironment,
            let cluster = try Self.postgreSQLCluster()
        {
            store = try PostgreSQLNoteStore(
                conninfo: try cluster.createSchema(), limits: StoreLimits(connections: 4))
        } else {
            store = try SQLiteNoteStore(
                path: directory.appendingPathComponent("notes.sqlite").path,
                reading: options.reading)
        }
        var server = ServerConfiguration()
        server.port = 0
        server.threads = options.threads
        server.maxBodyBytes = options.maxBodyBytes
        server.shutdownGracePeriod = .seconds(2)
        configuration = server
        passwordHasher = options.passwordHasher
        var service = ServiceConfiguration(
            authentication: options.auth,
            quota: NoteQuota(
                notes: options.quota > 0 ? options.quota : nil,
                bytes: options.quotaBytes > 0 ? options.quotaBytes : nil),
            signup: options.signup, signInLimits: options.signInLimits,
            passwordHasher: options.passwordHasher, clock: options.clock,
            hashing: options.hashing, signUpRate: options.signUpRate,
            signInRate: options.signInRate, sessionLifetime: options.sessionLifetime)
        service.changeFeed = options.changeFeed
        serviceStore = FailingStore(wrapping: store, failing: options.failing)
        services = DomainServices(store: serviceStore, configuration: service)
        changeStreams = ChangeStreamHub(
            feed: services.changeFeed, configuration: service.changeFeed)
        router = MyNotesApplication.router(
            services: services, changeStreams: changeStreams, logger: options.logger)
    }

    /// Makes the service's store fail these steps from now on (none: work again), as a
    /// database that breaks while the server runs.
    public func failStore(_ steps: Set<FailingStore.Step>) {
        serviceStore.fail(steps)
    }

    /// A connection to the service: a new TCP connection, or the router in this process.
    public func connect(_ transport: TestTransport) throws -> any HTTPConnection {
        switch transport {
        case .socket: try RawHTTPClient(port: port)
        case .inProcess: InProcessConnection(responder: router, limits: configuration)
        }
    }

    /// The cluster to put the store on, when `MYNOTES_TEST_STORE` asks for PostgreSQL.
    static func postgreSQLCluster() throws -> PostgreSQLCluster? {
        switch ProcessInfo.processInfo.environment["MYNOTES_TEST_STORE"] {
        case nil, "sqlite"?: return nil
        case "postgresql"?:
            guard let cluster = try PostgreSQLCluster.shared() else {
                throw PostgreSQLClusterError(
                    "MYNOTES_TEST_STORE=postgresql: \(PostgreSQLCluster.unavailableReason ?? "")")
            }
            return cluster
        case let other?:
            throw PostgreSQLClusterError(
                "MYNOTES_TEST_STORE must be sqlite or postgresql, not \(other)")
        }
    }

    /// Where databases go: a memory file system when there is one, where a commit's
    /// fsync costs nothing. These tests are about rules, not disks; what survives a
    /// crash is tested on a real disk, against a server process (`ServeProcessTests`).
    public static let scratch: URL = {
        let memory = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        return FileManager.default.isWritableFile(atPath: memory.path)
            ? memory : FileManager.default.temporaryDirectory
    }()

    /// The port the server listens on; starts listening on first use.
    public var port: Int { listening().port }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The legacy endpoint, `…/mynotes/webservice.php`.
    public var legacyURL: URL { baseURL.appendingPathComponent("mynotes/webservice.php") }

    private func listening() -> HTTPServer {
        listener.withLock { listener in
            switch listener {
            case .listening(let server):
                return server
            case .stopped:
                preconditionFailure("TestServer: the port was asked for after shutdown")
            case .notStarted:
                do {
                    let server = try HTTPServer(configuration: configuration, responder: router)
                    listener = .listening(server)
                    return server
                } catch {
                    preconditionFailure("TestServer could not listen on a loopback port: \(error)")
                }
            }
        }
    }

    /// Creates an account and returns its access token.
    @discardableResult
    public func createAccount(email: String) throws -> String {
        let store = self.store
        return try setup.wait { () async throws(AccountError) in
            try await AccountService(store: store).create(email: email).1
        }
    }

    /// Creates an account with a password, hashed at ``Options/passwordHasher``'s cost, and
    /// returns its first token (a session, as a sign-up's), without the sign-up's checks.
    @discardableResult
    public func createAccount(email: String, password: String) throws -> String {
        let store = self.store
        let token = try AccessToken.generate()
        let passwordHash = try passwordHasher.hash(password)
        _ = try setup.wait { () async throws(StoreError) in
            try await store.createAccount(
                email: email, tokenHash: token.hash, passwordHash: passwordHash)
        }
        return token.text
    }

    /// Stops listening (finishing requests in flight), closes the store, removes the folder.
    public func shutdown() {
        let server: HTTPServer? = listener.withLock { listener in
            defer { listener = .stopped }
            if case .listening(let server) = listener { return server }
            return nil
        }
        changeStreams.close()
        server?.shutdown()
        services.close()
        setup.close()
        serviceStore.close()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        shutdown()
    }
}
