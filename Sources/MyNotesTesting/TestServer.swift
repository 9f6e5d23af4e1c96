import BoundedExecution
import Foundation
import HTTPCore
import MyNotesService
import Storage

/// The real MyNotes server, in this process, on a free loopback port, over a new
/// SQLite database in a temporary folder that is removed on shutdown.
///
/// ```swift
/// let server = try TestServer(.init(auth: .token))
/// let token = try server.createAccount(email: "a@example.com")
/// // talk HTTP to server.baseURL …
/// server.shutdown()
/// ```
public final class TestServer: Sendable {
    public struct Options: Sendable {
        public var auth: AuthenticationMode
        public var quota: Int
        public var maxBodyBytes: Int
        public var threads: Int
        public var signup: SignupPolicy
        public var signInLimits: SignInLimits
        /// Store calls that fail as a broken database does (see ``FailingStore``).
        public var failing: Set<FailingStore.Step>
        /// Where the store reads, when not its own executor (the store closes it).
        public var reading: BoundedExecutor?
        /// The password-hashing executor's size.
        public var hashing: ExecutorLimits
        /// Sign-up and sign-in rates; unlimited unless a test is about them, since
        /// every test client comes from 127.0.0.1.
        public var signUpRate: RateLimits
        public var signInRate: RateLimits
        /// The clock of the service's time-based rules; a ``ManualClock`` to advance it.
        public var clock: any Clock<Duration>

        public init(
            auth: AuthenticationMode = .token, quota: Int = 0, maxBodyBytes: Int = 1 << 20,
            threads: Int = 2, signup: SignupPolicy = .open,
            signInLimits: SignInLimits = SignInLimits(), failing: Set<FailingStore.Step> = [],
            reading: BoundedExecutor? = nil,
            hashing: ExecutorLimits = ServiceConfiguration.defaultHashing,
            signUpRate: RateLimits = .unlimited, signInRate: RateLimits = .unlimited,
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.auth = auth
            self.quota = quota
            self.maxBodyBytes = maxBodyBytes
            self.threads = threads
            self.signup = signup
            self.signInLimits = signInLimits
            self.failing = failing
            self.reading = reading
            self.hashing = hashing
            self.signUpRate = signUpRate
            self.signInRate = signInRate
            self.clock = clock
        }
    }

    public let application: MyNotesApplication
    /// The store underneath, which never fails: tests set up their accounts through it.
    public let store: any NoteStore
    public let directory: URL
    public let baseURL: URL
    /// Runs the store's async calls for synchronous setup (``createAccount(email:)``).
    private let setup = BoundedExecutor(
        name: "test-setup", limits: ExecutorLimits(threads: 1, queueLimit: 1))

    public init(_ options: Options = Options()) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mynotes-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteNoteStore(
            path: directory.appendingPathComponent("notes.sqlite").path, reading: options.reading)
        var server = ServerConfiguration()
        server.port = 0
        server.threads = options.threads
        server.maxBodyBytes = options.maxBodyBytes
        server.shutdownGracePeriod = .seconds(2)
        let service = ServiceConfiguration(
            authentication: options.auth,
            quota: options.quota > 0 ? .atMost(options.quota) : .unlimited,
            signup: options.signup, signInLimits: options.signInLimits, hashing: options.hashing,
            signUpRate: options.signUpRate, signInRate: options.signInRate, clock: options.clock)
        application = try MyNotesApplication(
            server: server, service: service,
            store: options.failing.isEmpty
                ? store : FailingStore(wrapping: store, failing: options.failing))
        baseURL = URL(string: "http://127.0.0.1:\(application.port)")!
    }

    /// The legacy endpoint, `…/mynotes/webservice.php`.
    public var legacyURL: URL { baseURL.appendingPathComponent("mynotes/webservice.php") }

    public var port: Int { application.port }

    /// Creates an account and returns its access token.
    @discardableResult
    public func createAccount(email: String) throws -> String {
        let store = self.store
        return try setup.wait { () async throws(AccountError) in
            try await AccountService(store: store).create(email: email).1
        }
    }

    public func shutdown() {
        application.shutdown()
        setup.close()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        shutdown()
    }
}
