/// Where accounts and notes live: every role a store plays, and what it can do beyond
/// them. Every method is safe to call from many tasks at
/// once; a write that returns has been made durable. A store that has more work
/// waiting than it takes fails at once with ``StoreError/overloaded(retryAfter:)``.
///
/// Notes belong to one account; every note method takes the account's ID, so a
/// note of another account is simply not found. An account holds any number of
/// access tokens, stored only as their SHA-256.
///
/// ```swift
/// let store = try SQLiteNoteStore(path: "mynotes.sqlite")
/// let account = try await store.createAccount(email: "a@example.com", tokenHash: hash)
/// let note = try await store.addNote(
///     NoteDraft(date: "2026-11-29", content: "Buy milk"), account: account.id, quota: .unlimited)
/// ```
public protocol NoteStore:
    AccountStore, SessionStore, NoteCollection, ChangeFeedStore, AnswerFreshness
{
    /// Counters that several servers on one database share (sign-in throttles, rate
    /// limits), when this store keeps them for every server on it; `nil` when counters
    /// are kept in each server's memory.
    var sharedLimits: (any SharedLimitStore)? { get }

    /// Its readiness, warnings and figures for the operator; `nil` for a store that
    /// reports none.
    var monitoring: (any StoreMonitoring)? { get }

    /// Finishes pending writes and closes the database.
    func close()
}

extension NoteStore {
    /// By default a store keeps no counters for others.
    public var sharedLimits: (any SharedLimitStore)? { nil }

    /// By default a store reports nothing.
    public var monitoring: (any StoreMonitoring)? { nil }
}
