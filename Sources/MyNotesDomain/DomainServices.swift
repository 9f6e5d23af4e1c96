import BoundedExecution

/// Every service of the domain, each built once over one store, on one clock: the
/// legacy protocol, the REST API and the operator's commands all act through these.
/// It owns the password-hashing executor it makes, and ``close()`` ends it; the store
/// is the caller's.
///
/// ```swift
/// let services = DomainServices(store: store, configuration: ServiceConfiguration())
/// let (account, token) = try await services.accounts.create(email: "a@example.com")
/// services.close()
/// ```
public final class DomainServices: Sendable {
    public let store: any NoteStore
    public let configuration: ServiceConfiguration
    /// Where passwords are hashed: threads and a queue of their own
    /// (``ServiceConfiguration/hashing``).
    public let hashing: BoundedExecutor
    /// The one keeper of sessions, and so the one clock every service reads time from.
    package let keeper: SessionKeeper
    package let notes: NotesService
    public let sessions: SessionService
    public let accounts: AccountService
    package let changeFeed: ChangeFeed

    public init(store: any NoteStore, configuration: ServiceConfiguration) {
        self.store = store
        self.configuration = configuration
        let hashing = BoundedExecutor(name: "password-hashing", limits: configuration.hashing)
        self.hashing = hashing
        let keeper = SessionKeeper(
            store: store, lifetime: configuration.sessionLifetime, clock: configuration.clock)
        self.keeper = keeper
        notes = NotesService(
            store: store, quota: configuration.quota,
            authentication: configuration.authentication, keeper: keeper)
        sessions = SessionService(
            store: store, configuration: configuration, hashing: hashing, keeper: keeper,
            sharedLimits: store.sharedLimits)
        accounts = AccountService(store: store)
        changeFeed = ChangeFeed(
            store: store, configuration: configuration.changeFeed, now: { keeper.now })
    }

    /// Stops hashing (waiting sign-ins fail). The store stays open: it is the caller's.
    public func close() {
        hashing.close()
    }
}
