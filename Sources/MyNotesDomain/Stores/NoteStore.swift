/// Where accounts and notes live. Every method is safe to call from many tasks at
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
public protocol NoteStore: Sendable {
    func account(email: String) async throws(StoreError) -> Account?
    /// The account with that email and whether `tokenHash` is one of its tokens, in one
    /// read. `nil` when there is no such account.
    func account(email: String, presenting tokenHash: [UInt8]?) async throws(StoreError)
        -> TokenCheck?
    /// The account that holds the token with this hash, with that token's record
    /// (``TokenCheck/session``); `nil` when no account holds it.
    func account(tokenHash: [UInt8]) async throws(StoreError) -> TokenCheck?
    /// Creates an account holding one token (none when `tokenHash` is `nil`): a
    /// ``TokenKind/session`` when the account has a password (a sign-up), else the
    /// operator's ``TokenKind/accessKey``.
    func createAccount(
        email: String, tokenHash: [UInt8]?, passwordHash: String?
    ) async throws(StoreError) -> Account
    func allAccounts() async throws(StoreError) -> [Account]
    /// Removes the account and all its notes; `false` when there was none.
    func removeAccount(email: String) async throws(StoreError) -> Bool
    /// Revokes every token of the account and gives it this one, an
    /// ``TokenKind/accessKey``; `false` when there is no such account.
    func replaceTokens(email: String, tokenHash: [UInt8]) async throws(StoreError) -> Bool
    /// Gives the account one more token, a ``TokenKind/session`` (a sign-in's), made and
    /// last used at `createdAt` (milliseconds since 1970: the service's clock, which its
    /// session lifetimes are measured on).
    func addToken(_ tokenHash: [UInt8], account: Int64, at createdAt: Int64)
        async throws(StoreError)
    /// Revokes one token; `false` when no account held it.
    func removeToken(_ tokenHash: [UInt8]) async throws(StoreError) -> Bool

    // Sessions (issue 10). Five methods, each one statement or one short transaction;
    // times are milliseconds since 1970 (UTC), chosen by the caller.

    /// Every token of the account, oldest first (expired ones included: the caller judges).
    func sessions(account: Int64) async throws(StoreError) -> [Session]
    /// Records that the token was presented at `usedAt` (never moving its time back).
    /// The service calls it at most once a minute per token.
    func touchToken(_ tokenHash: [UInt8], usedAt: Int64) async throws(StoreError)
    /// Revokes every token of the account except `keeping` (all when `nil`); returns how
    /// many were revoked.
    func removeTokens(account: Int64, keeping: [UInt8]?) async throws(StoreError) -> Int
    /// Removes every ``TokenKind/session`` token last used before `lastUsedBefore` or
    /// made before `createdBefore` (a `nil` bound removes nothing by itself); returns how
    /// many. Access keys are never removed by time.
    func removeSessions(
        lastUsedBefore: Int64?, createdBefore: Int64?
    ) async throws(StoreError) -> Int
    /// Sets the account's encoded password hash and, in the same write, revokes every
    /// token of the account except `keepingToken` (all when `nil`); `false` when there
    /// is no such account.
    func setPasswordHash(
        _ passwordHash: String, account: Int64, keepingToken: [UInt8]?
    ) async throws(StoreError) -> Bool

    /// One page of the account's notes, newest first (see ``NotePage``).
    func notes(account: Int64, page: NotePage) async throws(StoreError) -> [Note]
    /// The account with that email and whether `tokenHash` is one of its tokens, then,
    /// only when `admit` accepts that check, the first `page` of its notes, in one read.
    /// The check costs the same whether or not the account exists, so its time does not
    /// tell which emails have accounts; a refused check reads no note. The check is `nil`
    /// when there is no such account.
    func checkedNotes(
        email: String, presenting tokenHash: [UInt8]?,
        admitting admit: @escaping @Sendable (TokenCheck?) -> Bool, page: NotePage
    ) async throws(StoreError) -> (check: TokenCheck?, notes: [Note])
    func note(id: Int64, account: Int64) async throws(StoreError) -> Note?
    /// A new note, unless it would take the account past `quota` (checked in the write
    /// itself, against running totals).
    func addNote(_ draft: NoteDraft, account: Int64, quota: NoteQuota) async throws(StoreError)
        -> Note
    /// Applies `change` to the note when `precondition` holds and the new content keeps
    /// the account within `quota`'s bytes, deciding all in one write: the version then
    /// grows by one.
    func updateNote(
        id: Int64, account: Int64, change: NoteChange, precondition: WritePrecondition,
        quota: NoteQuota
    ) async throws(StoreError) -> ConditionalWrite<Note>
    /// Removes the note when `precondition` holds, deciding both in one write.
    func removeNote(
        id: Int64, account: Int64, precondition: WritePrecondition
    ) async throws(StoreError) -> ConditionalWrite<Void>

    // The change feed (issue 12): every write to a note takes the next value of its
    // account's sequence, in the write's own transaction (the stores' triggers, migration
    // change-feed), and the feed keeps each note's latest change.

    /// The account's changes after `cursor` (`nil`: from nothing, every live note as
    /// ``FeedChange/Kind/created`` and no tombstone), at most `limit`, oldest first; or
    /// ``FeedRead/expired`` when the feed can no longer answer for `cursor`.
    func changes(account: Int64, after cursor: Int64?, limit: Int) async throws(StoreError)
        -> FeedRead
    /// The account's position in its feed now: the sequence of its last change, 0 before any.
    func changePosition(account: Int64) async throws(StoreError) -> Int64
    /// Removes the tombstones of notes removed before `removedBefore` (milliseconds since
    /// 1970), recording for each account the newest sequence removed so that an older
    /// cursor reads as expired. Returns how many were removed.
    func purgeChanges(removedBefore: Int64) async throws(StoreError) -> Int
    /// Calls `observer` whenever a write to notes has committed (from this process, and on
    /// PostgreSQL from any server on the database), with the account it was for.
    func observeChanges(_ observer: @escaping @Sendable (ChangeSignal) -> Void)

    /// Finishes pending writes and closes the database.
    func close()

    /// The database's state now, as far as commits go (see ``StoreChangeStamp``): taken
    /// before a read, it tells later whether the read's result is still current. `nil`
    /// when the store cannot tell, as when other servers write to the same database
    /// unseen: nothing may then be cached.
    func changeStamp() -> StoreChangeStamp?
    /// Whether what a read of `account` found, begun after `since` was taken, is still
    /// what the store holds, `now` being a stamp taken since: no write to that account
    /// and no write the store cannot attribute (another process's, say) committed in
    /// between. Writes to other accounts do not count. Never `true` for an answer older
    /// than a write to the account acknowledged before `now` was taken.
    func isUnchanged(account: Int64, since: StoreChangeStamp, now: StoreChangeStamp) -> Bool
}

extension NoteStore {
    /// By default a store cannot tell; nothing read from it is cached.
    public func changeStamp() -> StoreChangeStamp? { nil }

    /// By default nothing read is current once read.
    public func isUnchanged(
        account: Int64, since: StoreChangeStamp, now: StoreChangeStamp
    ) -> Bool { false }

    /// Creates an account holding one token and no password.
    public func createAccount(email: String, tokenHash: [UInt8]) async throws(StoreError) -> Account
    {
        try await createAccount(email: email, tokenHash: tokenHash, passwordHash: nil)
    }
}
