import Foundation
import Locking
import MyNotesDomain

/// A ``NoteStore`` held in memory, with the semantics of the real stores: the same
/// ordering, paging and search, quotas and preconditions decided inside each write, the
/// change feed with its sequences, tombstones and purges (assembled by the same
/// `FeedRead.assemble` as theirs), and observers told of every committed write. Tests of
/// the domain's rules run over it in microseconds; a contract test in StorageTests keeps
/// its answers equal to the SQLite store's.
///
/// Every call takes one lock for its whole read or write, so each is atomic as a
/// transaction is, and the store is safe to use from many tasks at once.
///
/// ```swift
/// let store = InMemoryNoteStore()
/// let account = try await store.createAccount(email: "a@example.com", tokenHash: nil)
/// let note = try await store.addNote(
///     NoteDraft(date: "2026-11-29", content: "Buy milk"), account: account.id, quota: .unlimited)
/// ```
public final class InMemoryNoteStore: NoteStore {
    /// An account with the running totals the quota and the change feed read.
    struct StoredAccount {
        var account: Account
        var noteCount = 0
        var noteBytes = 0
        /// The sequence of the account's last change: its position in the feed.
        var changeSequence: Int64 = 0
        /// The newest sequence a purge removed: a cursor before it has expired.
        var purgedSequence: Int64 = 0
    }

    struct StoredToken {
        var account: Int64
        var session: Session
    }

    struct StoredNote {
        var account: Int64
        var note: Note
    }

    /// The latest change to one note, a tombstone when the note was removed.
    struct StoredChange {
        var sequence: Int64
        /// The sequence of the change that made the note.
        var createdSequence: Int64
        var version: Int64
        var deleted: Bool
        var changedAt: Int64
    }

    struct State {
        var accounts: [Int64: StoredAccount] = [:]
        /// Account IDs by their email folded as SQLite's `NOCASE` folds it (ASCII only).
        var emails: [String: Int64] = [:]
        var tokens: [[UInt8]: StoredToken] = [:]
        var notes: [Int64: StoredNote] = [:]
        /// Each account's latest change per note, by note ID.
        var changes: [Int64: [Int64: StoredChange]] = [:]
        /// Note IDs are never reused, as SQLite's `AUTOINCREMENT` never reuses them.
        var lastNoteID: Int64 = 0
        var closed = false
    }

    let state = Lock(State())
    private let observers = Lock<[@Sendable (ChangeSignal) -> Void]>([])
    /// Milliseconds since 1970: when accounts, tokens and notes are made and changed, and
    /// when a note is removed (which the purge of tombstones compares).
    let now: @Sendable () -> Int64

    /// `now` is the store's clock; by default the wall clock, as the real stores use.
    public init(now: @escaping @Sendable () -> Int64 = InMemoryNoteStore.wallClock) {
        self.now = now
    }

    /// Milliseconds since 1970 by the system's clock.
    public static let wallClock: @Sendable () -> Int64 = {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }

    public func close() {
        state.withLock { $0.closed = true }
    }

    /// Runs `body` under the lock, as one transaction; a closed store refuses it.
    func transaction<Value>(
        _ body: (inout State) throws(StoreError) -> Value
    ) throws(StoreError) -> Value {
        try state.withLock { state throws(StoreError) -> Value in
            guard !state.closed else { throw .closed }
            return try body(&state)
        }
    }

    /// Tells every observer of a committed write, outside the lock.
    func post(_ signal: ChangeSignal) {
        let current = observers.withLock { $0 }
        for observer in current { observer(signal) }
    }

    public func observeChanges(_ observer: @escaping @Sendable (ChangeSignal) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// An email as a `COLLATE NOCASE` column compares it: ASCII letters folded, nothing else.
    static func emailKey(_ email: String) -> String {
        String(
            decoding: email.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    // MARK: Accounts

    public func account(email: String) async throws(StoreError) -> Account? {
        try transaction { state in
            state.emails[Self.emailKey(email)].flatMap { state.accounts[$0]?.account }
        }
    }

    public func account(
        email: String, presenting tokenHash: [UInt8]?
    ) async throws(StoreError) -> TokenCheck? {
        try transaction { state in Self.tokenCheck(email: email, presenting: tokenHash, in: state) }
    }

    static func tokenCheck(
        email: String, presenting tokenHash: [UInt8]?, in state: State
    ) -> TokenCheck? {
        guard let id = state.emails[emailKey(email)], let account = state.accounts[id] else {
            return nil
        }
        let token = tokenHash.flatMap { state.tokens[$0] }
        let holds = token?.account == id
        return TokenCheck(
            account: account.account, holdsToken: holds, session: holds ? token?.session : nil)
    }

    public func account(tokenHash: [UInt8]) async throws(StoreError) -> TokenCheck? {
        try transaction { state in
            guard let token = state.tokens[tokenHash],
                let account = state.accounts[token.account]
            else { return nil }
            return TokenCheck(account: account.account, holdsToken: true, session: token.session)
        }
    }

    public func createAccount(
        email: String, tokenHash: [UInt8]?, passwordHash: String?
    ) async throws(StoreError) -> Account {
        let now = self.now()
        return try transaction { state throws(StoreError) in
            let key = Self.emailKey(email)
            guard state.emails[key] == nil else { throw .duplicateEmail(email) }
            if let tokenHash, state.tokens[tokenHash] != nil {
                throw .database(InMemoryStoreFailure("a token with that hash exists"))
            }
            // The next ID as SQLite gives a rowid: one past the largest in use.
            let id = (state.accounts.keys.max() ?? 0) + 1
            let account = Account(id: id, email: email, passwordHash: passwordHash, createdAt: now)
            state.accounts[id] = StoredAccount(account: account)
            state.emails[key] = id
            if let tokenHash {
                // With a password it is a sign-up, whose token is a session; without, the
                // operator's `accounts add`, whose token is an access key.
                let kind: TokenKind = passwordHash == nil ? .accessKey : .session
                state.tokens[tokenHash] = StoredToken(
                    account: id,
                    session: Session(
                        tokenHash: tokenHash, kind: kind, createdAt: now, lastUsedAt: now))
            }
            return account
        }
    }

    public func allAccounts() async throws(StoreError) -> [Account] {
        try transaction { state in
            state.accounts.values.map(\.account).sorted {
                Self.emailKey($0.email).utf8.lexicographicallyPrecedes(Self.emailKey($1.email).utf8)
            }
        }
    }

    public func removeAccount(email: String) async throws(StoreError) -> Bool {
        try transaction { state in
            guard let id = state.emails.removeValue(forKey: Self.emailKey(email)) else {
                return false
            }
            state.accounts[id] = nil
            state.tokens = state.tokens.filter { $0.value.account != id }
            state.notes = state.notes.filter { $0.value.account != id }
            state.changes[id] = nil
            return true
        }
    }

    public func replaceTokens(email: String, tokenHash: [UInt8]) async throws(StoreError) -> Bool {
        let now = self.now()
        return try transaction { state throws(StoreError) in
            guard let id = state.emails[Self.emailKey(email)] else { return false }
            state.tokens = state.tokens.filter { $0.value.account != id }
            try Self.insertToken(tokenHash, kind: .accessKey, account: id, at: now, in: &state)
            return true
        }
    }

    public func addToken(
        _ tokenHash: [UInt8], account: Int64, at createdAt: Int64
    ) async throws(StoreError) {
        try transaction { state throws(StoreError) in
            try Self.insertToken(
                tokenHash, kind: .session, account: account, at: createdAt, in: &state)
        }
    }

    public func removeToken(_ tokenHash: [UInt8]) async throws(StoreError) -> Bool {
        try transaction { state in state.tokens.removeValue(forKey: tokenHash) != nil }
    }

    public func setPasswordHash(
        _ passwordHash: String, account: Int64, keepingToken: [UInt8]?
    ) async throws(StoreError) -> Bool {
        try transaction { state in
            guard state.accounts[account] != nil else { return false }
            state.accounts[account]?.account.passwordHash = passwordHash
            _ = Self.removeTokens(account: account, keeping: keepingToken, in: &state)
            return true
        }
    }

    /// A token as the tokens table takes one: its hash is its key, and its account must exist.
    private static func insertToken(
        _ tokenHash: [UInt8], kind: TokenKind, account: Int64, at createdAt: Int64,
        in state: inout State
    ) throws(StoreError) {
        guard state.accounts[account] != nil else {
            throw .database(InMemoryStoreFailure("no account \(account) for the token"))
        }
        guard state.tokens[tokenHash] == nil else {
            throw .database(InMemoryStoreFailure("a token with that hash exists"))
        }
        state.tokens[tokenHash] = StoredToken(
            account: account,
            session: Session(
                tokenHash: tokenHash, kind: kind, createdAt: createdAt, lastUsedAt: createdAt))
    }

    // MARK: Sessions

    public func sessions(account: Int64) async throws(StoreError) -> [Session] {
        try transaction { state in
            state.tokens.values.filter { $0.account == account }.map(\.session).sorted {
                $0.createdAt != $1.createdAt
                    ? $0.createdAt < $1.createdAt
                    : $0.tokenHash.lexicographicallyPrecedes($1.tokenHash)
            }
        }
    }

    public func touchToken(_ tokenHash: [UInt8], usedAt: Int64) async throws(StoreError) {
        try transaction { state in
            guard let lastUsedAt = state.tokens[tokenHash]?.session.lastUsedAt else { return }
            state.tokens[tokenHash]?.session.lastUsedAt = max(lastUsedAt, usedAt)
        }
    }

    public func removeTokens(account: Int64, keeping: [UInt8]?) async throws(StoreError) -> Int {
        try transaction { state in Self.removeTokens(account: account, keeping: keeping, in: &state)
        }
    }

    private static func removeTokens(
        account: Int64, keeping: [UInt8]?, in state: inout State
    ) -> Int {
        let before = state.tokens.count
        state.tokens = state.tokens.filter { $0.value.account != account || $0.key == keeping }
        return before - state.tokens.count
    }

    public func removeSessions(
        lastUsedBefore: Int64?, createdBefore: Int64?
    ) async throws(StoreError) -> Int {
        try transaction { state in
            let before = state.tokens.count
            state.tokens = state.tokens.filter { _, token in
                let session = token.session
                return session.kind != .session
                    || !(session.lastUsedAt < (lastUsedBefore ?? -1)
                        || session.createdAt < (createdBefore ?? -1))
            }
            return before - state.tokens.count
        }
    }
}
