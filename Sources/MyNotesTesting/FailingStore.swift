import Locking
import MyNotesDomain
import SQLiteStore

/// A real store whose chosen steps fail as a broken database does, so that the real
/// server can be made to answer ResultCode -3 or HTTP 500.
///
/// ```swift
/// let store = FailingStore(wrapping: try SQLiteNoteStore(path: path), failing: [.notes])
/// ```
public final class FailingStore: NoteStore {
    /// The groups of store calls that can be made to fail.
    public enum Step: Sendable, CaseIterable {
        /// Finding an account by email (bearer-token lookups always work).
        case accountLookup
        /// Reading and writing notes.
        case notes
        /// Creating, listing and removing accounts, their tokens and passwords.
        case accounts
    }

    let base: any NoteStore
    private let failing: Lock<Set<Step>>

    public init(wrapping base: any NoteStore, failing: Set<Step>) {
        self.base = base
        self.failing = Lock(failing)
    }

    /// From now on, these steps fail (and only these).
    public func fail(_ steps: Set<Step>) {
        failing.withLock { $0 = steps }
    }

    /// The wrapped store's: a broken database still shows whether anything committed.
    public func changeStamp() -> StoreChangeStamp? {
        base.changeStamp()
    }

    public func isUnchanged(
        account: Int64, since: StoreChangeStamp, now: StoreChangeStamp
    ) -> Bool {
        base.isUnchanged(account: account, since: since, now: now)
    }

    private func check(_ step: Step) throws(StoreError) {
        if failing.withLock({ $0.contains(step) }) {
            throw .database(
                SQLiteError(extendedCode: SQLiteError.ioError, message: "disk I/O error", sql: nil))
        }
    }

    public func account(email: String) async throws(StoreError) -> Account? {
        try check(.accountLookup)
        return try await base.account(email: email)
    }

    public func account(email: String, presenting tokenHash: [UInt8]?) async throws(StoreError)
        -> TokenCheck?
    {
        try check(.accountLookup)
        return try await base.account(email: email, presenting: tokenHash)
    }

    public func account(tokenHash: [UInt8]) async throws(StoreError) -> TokenCheck? {
        try await base.account(tokenHash: tokenHash)
    }

    public func checkedNotes(
        email: String, presenting tokenHash: [UInt8]?,
        admitting admit: @escaping @Sendable (TokenCheck?) -> Bool, page: NotePage
    ) async throws(StoreError) -> (check: TokenCheck?, notes: [Note]) {
        try check(.accountLookup)
        // Reading notes fails only when the check lets the store read them: a refused
        // check answers as it would with a working store, which shows it read none.
        let admitted = Lock(false)
        let found = try await base.checkedNotes(
            email: email, presenting: tokenHash,
            admitting: { check in
                let admits = admit(check)
                admitted.withLock { $0 = admits }
                return admits
            }, page: page)
        if admitted.withLock({ $0 }) { try check(.notes) }
        return found
    }

    public func createAccount(
        email: String, tokenHash: [UInt8]?, passwordHash: String?
    ) async throws(StoreError) -> Account {
        try check(.accounts)
        return try await base.createAccount(
            email: email, tokenHash: tokenHash, passwordHash: passwordHash)
    }

    public func allAccounts() async throws(StoreError) -> [Account] {
        try check(.accounts)
        return try await base.allAccounts()
    }

    public func removeAccount(email: String) async throws(StoreError) -> Bool {
        try check(.accounts)
        return try await base.removeAccount(email: email)
    }

    public func replaceTokens(email: String, tokenHash: [UInt8]) async throws(StoreError) -> Bool {
        try check(.accounts)
        return try await base.replaceTokens(email: email, tokenHash: tokenHash)
    }

    public func addToken(
        _ tokenHash: [UInt8], account: Int64, at createdAt: Int64
    ) async throws(StoreError) {
        try check(.accounts)
        try await base.addToken(tokenHash, account: account, at: createdAt)
    }

    public func removeToken(_ tokenHash: [UInt8]) async throws(StoreError) -> Bool {
        try check(.accounts)
        return try await base.removeToken(tokenHash)
    }

    public func sessions(account: Int64) async throws(StoreError) -> [Session] {
        try check(.accounts)
        return try await base.sessions(account: account)
    }

    public func touchToken(_ tokenHash: [UInt8], usedAt: Int64) async throws(StoreError) {
        try check(.accounts)
        try await base.touchToken(tokenHash, usedAt: usedAt)
    }

    public func removeTokens(account: Int64, keeping: [UInt8]?) async throws(StoreError) -> Int {
        try check(.accounts)
        return try await base.removeTokens(account: account, keeping: keeping)
    }

    public func removeSessions(
        lastUsedBefore: Int64?, createdBefore: Int64?
    ) async throws(StoreError) -> Int {
        try check(.accounts)
        return try await base.removeSessions(
            lastUsedBefore: lastUsedBefore, createdBefore: createdBefore)
    }

    public func setPasswordHash(
        _ passwordHash: String, account: Int64, keepingToken: [UInt8]?
    ) async throws(StoreError) -> Bool {
        try check(.accounts)
        return try await base.setPasswordHash(
            passwordHash, account: account, keepingToken: keepingToken)
    }

    public func notes(account: Int64, page: NotePage) async throws(StoreError) -> [Note] {
        try check(.notes)
        return try await base.notes(account: account, page: page)
    }

    public func note(id: Int64, account: Int64) async throws(StoreError) -> Note? {
        try check(.notes)
        return try await base.note(id: id, account: account)
    }

    public func addNote(_ draft: NoteDraft, account: Int64, quota: NoteQuota)
        async throws(StoreError)
        -> Note
    {
        try check(.notes)
        return try await base.addNote(draft, account: account, quota: quota)
    }

    public func updateNote(
        id: Int64, account: Int64, change: NoteChange, precondition: WritePrecondition,
        quota: NoteQuota
    ) async throws(StoreError) -> ConditionalWrite<Note> {
        try check(.notes)
        return try await base.updateNote(
            id: id, account: account, change: change, precondition: precondition, quota: quota)
    }

    public func removeNote(
        id: Int64, account: Int64, precondition: WritePrecondition
    ) async throws(StoreError) -> ConditionalWrite<Void> {
        try check(.notes)
        return try await base.removeNote(id: id, account: account, precondition: precondition)
    }

    // The change feed fails along with the notes.
    public func changes(account: Int64, after cursor: Int64?, limit: Int)
        async throws(StoreError) -> FeedRead
    {
        try check(.notes)
        return try await base.changes(account: account, after: cursor, limit: limit)
    }

    public func changePosition(account: Int64) async throws(StoreError) -> Int64 {
        try check(.notes)
        return try await base.changePosition(account: account)
    }

    public func purgeChanges(removedBefore: Int64) async throws(StoreError) -> Int {
        try check(.notes)
        return try await base.purgeChanges(removedBefore: removedBefore)
    }

    public func observeChanges(_ observer: @escaping @Sendable (ChangeSignal) -> Void) {
        base.observeChanges(observer)
    }

    public func close() { base.close() }

    public var sharedLimits: (any SharedLimitStore)? { base.sharedLimits }

    public var monitoring: (any StoreMonitoring)? { base.monitoring }
}
