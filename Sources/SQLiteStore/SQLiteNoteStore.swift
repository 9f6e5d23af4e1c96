import BoundedExecution
import Foundation
import MyNotesDomain
import StorageSupport
import Telemetry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The embedded store: one SQLite file in WAL mode with `synchronous=FULL`.
///
/// Reads run in parallel on the reader executor's threads, each with a read-only
/// connection; writes go to one writer thread that batches concurrent writes into one
/// durable commit. No caller's thread waits for either: the caller's task suspends.
/// Both queues are bounded (``StoreLimits``); past them a call fails at once with
/// ``StoreError/overloaded(retryAfter:)``.
///
/// ```swift
/// let store = try SQLiteNoteStore(path: "/var/lib/mynotes/mynotes.sqlite")
/// defer { store.close() }
/// let notes = try await store.notes(account: 1, page: NotePage(limit: 20))
/// ```
public final class SQLiteNoteStore: NoteStore {
    public let path: String
    let writer: SQLiteWriter
    private let readers: SQLiteReaderPool
    let reading: BoundedExecutor
    private let retryAfter: Duration
    /// What /metrics shows of this store (SQLiteNoteStore+Monitoring).
    let statistics = StoreStatistics()
    private let changeWatch: SQLiteChangeWatch
    /// Told of every committed write to notes, so that the change feed can wake its live
    /// streams (SQLiteNoteStore+Changes).
    let changeObservers = ChangeObservers()
    /// Decides when the writer moves waiting notes into the search index: once the store
    /// is quiet, or at once when the index falls behind.
    let searchIndexer: SQLiteSearchIndexer

    /// Opens (creating if needed) the database at `path` and applies migrations. When the
    /// search index is new (an upgrade, another folding) or more than 250,000 notes wait for
    /// it, they are indexed first, and `indexing` hears how far that has come; fewer are
    /// left to the writer, which indexes them while the store serves.
    /// Reads run on `reading` when given (the store closes it), else on an executor
    /// made from `limits.readers`.
    public init(
        path: String, limits: StoreLimits = StoreLimits(), reading: BoundedExecutor? = nil,
        indexing: @escaping (SearchIndexProgress) -> Void = { _ in }
    ) throws(StoreError) {
        self.path = path
        Self.createOwnerOnly(path)
        let connection: SQLiteConnection
        let waiting: Int
        do throws(SQLiteError) {
            connection = try Self.writerConnection(path)
            let migrated = try SQLiteMigrations.apply(on: connection)
            do {
                // A new index is built before the store serves, once; a tail of notes
                // waiting for an index that exists is left to the writer, within the bound
                // past which the writer would hurry anyway.
                try SQLiteSearchIndex.indexMissingNotes(
                    on: connection,
                    notes: migrated.contains(SQLiteMigrations.baseline.name)
                        ? .all : .noneUpTo(SQLiteSearchIndexer.priorityLag),
                    progress: indexing)
            } catch  where error.code == SQLiteError.readOnly {
                // A read-only file: the waiting notes stay waiting (searches test them),
                // and the writer's batches index them once it can write again.
                connection.finishStatements()
            }
            waiting = try SQLiteSearchIndex.waiting(on: connection)
            connection.finishStatements()
        } catch {
            throw .cannotOpen(location: path, cause: error)
        }
        // On a read-only file system (one that turned read-only after an error, say) the
        // store opens for reading, and writes fail until the file can be written again.
        let readers = SQLiteReaderPool(path: path)
        self.readers = readers
        // The writer's connection has made the WAL index by now; the watch reads SQLite's
        // mapping of it, and the writer detaches it before closing that connection.
        let changeWatch = SQLiteChangeWatch()
        changeWatch.attach(to: connection)
        self.changeWatch = changeWatch
        let searchIndexer = SQLiteSearchIndexer(waiting: waiting)
        self.searchIndexer = searchIndexer
        writer = SQLiteWriter(
            connection: connection, queueLimit: limits.writeQueueLimit,
            retryAfter: limits.retryAfter, groupCommit: limits.groupCommit,
            recovery: SQLiteWriterRecovery(
                // A file that is gone is not reopened: that would create an empty one.
                isWritable: { access(path, W_OK) == 0 },
                reopen: { () throws(SQLiteError) in
                    readers.renew()
                    return try Self.writerConnection(path)
                }),
            statistics: statistics, changes: changeWatch, indexer: searchIndexer)
        // A read's task may continue on the reader's thread: serializing the answer there
        // spares a hand-off to another thread per request.
        self.reading =
            reading
            ?? BoundedExecutor(
                name: "sqlite-reader", limits: limits.readers, resumedTasks: .continueHere)
        retryAfter = limits.retryAfter
    }

    private static func writerConnection(_ path: String) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            PRAGMA foreign_keys = ON;
            """)
        return connection
    }

    /// Creates the database file with mode 0600 when there is none yet. SQLite would
    /// create it 0644 (less the umask), readable by every local user, and it creates the
    /// `-wal`, `-shm` and journal files with the main file's mode, so all of them are
    /// private once this one is. An existing file keeps the mode its owner gave it; a path
    /// that cannot be created is left for SQLite to report.
    private static func createOwnerOnly(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        #if canImport(Glibc)
            if descriptor >= 0 { Glibc.close(descriptor) }
        #elseif canImport(Darwin)
            if descriptor >= 0 { Darwin.close(descriptor) }
        #endif
    }

    /// SQLite's `PRAGMA integrity_check`: `["ok"]` for a sound database, else one line
    /// per problem found.
    ///
    /// ```swift
    /// let report = try await store.integrityCheck()  // ["ok"]
    /// ```
    public func integrityCheck() async throws(StoreError) -> [String] {
        try await read { connection throws(SQLiteError) in
            let check = try connection.statement("PRAGMA integrity_check")
            var lines: [String] = []
            while try check.step() { lines.append(check.text(0)) }
            return lines
        }
    }

    public func close() {
        reading.close()
        writer.close()
        readers.close()
    }

    deinit {
        close()
    }

    public func changeStamp() -> StoreChangeStamp? {
        // A request answered from a kept answer reads nothing, but the store is
        // not quiet: the search index's batches wait.
        searchIndexer.noteActivity()
        return changeWatch.stamp()
    }

    public func isUnchanged(
        account: Int64, since: StoreChangeStamp, now: StoreChangeStamp
    ) -> Bool {
        changeWatch.isUnchanged(account: account, since: since, now: now)
    }

    // MARK: Accounts

    private static let accountColumns = "id, email, password_hash, created_at"

    public func account(email: String) async throws(StoreError) -> Account? {
        try await read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                "SELECT \(Self.accountColumns) FROM accounts WHERE email = ?")
            try statement.bind(.text(email))
            return try statement.step() ? Self.account(from: statement) : nil
        }
    }

    public func account(
        email: String, presenting tokenHash: [UInt8]?
    ) async throws(StoreError) -> TokenCheck? {
        try await read { connection throws(SQLiteError) in
            try Self.tokenCheck(email: email, presenting: tokenHash, on: connection)
        }
    }

    public func account(tokenHash: [UInt8]) async throws(StoreError) -> TokenCheck? {
        try await read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                """
                SELECT a.id, a.email, a.password_hash, a.created_at,
                    t.hash, t.kind, t.created_at, t.last_used_at
                FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.hash = ?
                """)
            try statement.bind(.blob(tokenHash))
            guard try statement.step() else { return nil }
            return TokenCheck(
                account: Self.account(from: statement), holdsToken: true,
                session: Self.session(from: statement, startingAt: 4))
        }
    }

    public func createAccount(
        email: String, tokenHash: [UInt8]?, passwordHash: String?
    ) async throws(StoreError) -> Account {
        // The UNIQUE index on email decides, in the insert itself: a check before it
        // would only repeat the index's work.
        try await writer.perform(touching: { .account($0.id) }) { connection throws(StoreError) in
            let account: Account
            do throws(SQLiteError) {
                let insert = try connection.statement(
                    """
                    INSERT INTO accounts (email, password_hash, created_at) VALUES (?, ?, ?)
                    RETURNING \(Self.accountColumns)
                    """)
                try insert.bind(
                    .text(email), passwordHash.map(SQLiteValue.text) ?? .null,
                    .integer(Self.now()))
                _ = try insert.step()
                account = Self.account(from: insert)
            } catch  where error.extendedCode == SQLiteError.constraintUnique {
                throw .duplicateEmail(email)
            } catch {
                throw .database(error)
            }
            if let tokenHash {
                // With a password it is a sign-up, whose token is a session; without, the
                // operator's `accounts add`, whose token is an access key.
                let kind: TokenKind = passwordHash == nil ? .accessKey : .session
                try Self.sqlite { () throws(SQLiteError) in
                    try Self.insertToken(tokenHash, kind: kind, account: account.id, on: connection)
                }
            }
            return account
        }
    }

    public func allAccounts() async throws(StoreError) -> [Account] {
        try await read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                "SELECT \(Self.accountColumns) FROM accounts ORDER BY email")
            var accounts: [Account] = []
            while try statement.step() { accounts.append(Self.account(from: statement)) }
            return accounts
        }
    }

    public func removeAccount(email: String) async throws(StoreError) -> Bool {
        try await writing { connection throws(SQLiteError) in
            try SQLiteSearchIndex.removeNotes(ofAccount: email, on: connection)  // search index
            let delete = try connection.statement("DELETE FROM accounts WHERE email = ?")
            try delete.bind(.text(email)).run()
            return connection.changes > 0
        }
    }

    public func replaceTokens(email: String, tokenHash: [UInt8]) async throws(StoreError) -> Bool {
        let account: Int64? = try await writing(touching: Self.touched) {
            connection throws(SQLiteError) in
            let find = try connection.statement("SELECT id FROM accounts WHERE email = ?")
            try find.bind(.text(email))
            guard try find.step() else { return nil }
            let account = find.int64(0)
            let revoke = try connection.statement("DELETE FROM tokens WHERE account_id = ?")
            try revoke.bind(.integer(account)).run()
            try Self.insertToken(tokenHash, kind: .accessKey, account: account, on: connection)
            return account
        }
        return account != nil
    }

    public func addToken(
        _ tokenHash: [UInt8], account: Int64, at createdAt: Int64
    ) async throws(StoreError) {
        try await writing(touching: { _ in .account(account) }) { connection throws(SQLiteError) in
            try Self.insertToken(
                tokenHash, kind: .session, account: account, at: createdAt, on: connection)
        }
    }

    public func removeToken(_ tokenHash: [UInt8]) async throws(StoreError) -> Bool {
        let account: Int64? = try await writing(touching: Self.touched) {
            connection throws(SQLiteError) in
            let delete = try connection.statement(
                "DELETE FROM tokens WHERE hash = ? RETURNING account_id")
            try delete.bind(.blob(tokenHash))
            return try delete.step() ? delete.int64(0) : nil
        }
        return account != nil
    }

    // MARK: Sessions

    public func sessions(account: Int64) async throws(StoreError) -> [Session] {
        try await read { connection throws(SQLiteError) in
            let statement = try connection.statement(
                """
                SELECT hash, kind, created_at, last_used_at FROM tokens
                WHERE account_id = ? ORDER BY created_at, hash
                """)
            try statement.bind(.integer(account))
            var sessions: [Session] = []
            while try statement.step() { sessions.append(Self.session(from: statement)) }
            return sessions
        }
    }

    public func touchToken(_ tokenHash: [UInt8], usedAt: Int64) async throws(StoreError) {
        // Recording a use only lengthens a session's life, and a kept answer's reuse ends
        // before the session's next use is due to be recorded (`SessionKeeper`): no answer
        // depends on this write.
        try await writing(touching: { _ in .accounts([]) }) { connection throws(SQLiteError) in
            let update = try connection.statement(
                "UPDATE tokens SET last_used_at = max(last_used_at, ?) WHERE hash = ?")
            try update.bind(.integer(usedAt), .blob(tokenHash)).run()
        }
    }

    public func removeTokens(account: Int64, keeping: [UInt8]?) async throws(StoreError) -> Int {
        try await writing(touching: { _ in .account(account) }) { connection throws(SQLiteError) in
            try Self.removeTokens(account: account, keeping: keeping, on: connection)
        }
    }

    public func removeSessions(
        lastUsedBefore: Int64?, createdBefore: Int64?
    ) async throws(StoreError) -> Int {
        let accounts: [Int64] = try await writing(touching: { .accounts($0) }) {
            connection throws(SQLiteError) in
            let delete = try connection.statement(
                """
                DELETE FROM tokens WHERE kind = ?1
                    AND (last_used_at < coalesce(?2, -1) OR created_at < coalesce(?3, -1))
                RETURNING account_id
                """)
            try delete.bind(
                .text(TokenKind.session.rawValue), lastUsedBefore.map(SQLiteValue.integer) ?? .null,
                createdBefore.map(SQLiteValue.integer) ?? .null)
            var accounts: [Int64] = []
            while try delete.step() { accounts.append(delete.int64(0)) }
            return accounts
        }
        return accounts.count
    }

    public func setPasswordHash(
        _ passwordHash: String, account: Int64, keepingToken: [UInt8]?
    ) async throws(StoreError) -> Bool {
        try await writing(touching: { _ in .account(account) }) { connection throws(SQLiteError) in
            let update = try connection.statement(
                "UPDATE accounts SET password_hash = ? WHERE id = ?")
            try update.bind(.text(passwordHash), .integer(account)).run()
            guard connection.changes > 0 else { return false }
            _ = try Self.removeTokens(account: account, keeping: keepingToken, on: connection)
            return true
        }
    }

    private static func removeTokens(
        account: Int64, keeping: [UInt8]?, on connection: SQLiteConnection
    ) throws(SQLiteError) -> Int {
        let delete = try connection.statement(
            "DELETE FROM tokens WHERE account_id = ?1 AND hash IS NOT ?2")
        try delete.bind(.integer(account), keeping.map(SQLiteValue.blob) ?? .null).run()
        return connection.changes
    }

    private static func insertToken(
        _ tokenHash: [UInt8], kind: TokenKind, account: Int64, at createdAt: Int64 = now(),
        on connection: SQLiteConnection
    ) throws(SQLiteError) {
        let insert = try connection.statement(
            """
            INSERT INTO tokens (hash, account_id, created_at, last_used_at, kind)
            VALUES (?1, ?2, ?3, ?3, ?4)
            """)
        try insert.bind(
            .blob(tokenHash), .integer(account), .integer(createdAt), .text(kind.rawValue)
        ).run()
    }

    // MARK: Notes

    static let noteColumns = "id, date, content, created_at, updated_at, version"

    public func notes(account: Int64, page: NotePage) async throws(StoreError) -> [Note] {
        let searchIndexer = self.searchIndexer
        return try await read { connection throws(SQLiteError) in
            try Self.notes(account: account, page: page, on: connection, indexer: searchIndexer)
        }
    }

    /// One page of the account's notes, read on `connection`; a search tells `indexer`
    /// when it tested the notes waiting for the index.
    static func notes(
        account: Int64, page: NotePage, on connection: SQLiteConnection,
        indexer: SQLiteSearchIndexer? = nil
    ) throws(SQLiteError) -> [Note] {
        if let found = try SQLiteSearchIndex.notes(
            account: account, page: page, on: connection, indexer: indexer)
        {
            return found  // a search: the search index answers
        }
        let needle = page.containing.map(TextFolding.fold).flatMap { $0.isEmpty ? nil : $0 }
        // Two statements, not one with `?2 IS NULL OR …`: only plain bounds let SQLite seek
        // notes_by_account_newest to the cursor. A NULL needle switches search off.
        let statement = try connection.statement(
            page.after == nil ? pageFromNewest : pageAfterCursor)
        try statement.bind(
            .integer(account), page.after.map { .text($0.sortKey) } ?? .null,
            .integer(page.after?.id ?? 0), needle.map(SQLiteValue.text) ?? .null,
            .integer(Int64(max(0, page.limit))))
        var notes: [Note] = []
        while try statement.step() { notes.append(try note(from: statement)) }
        return notes
    }

    private static let pageFromNewest = """
        SELECT \(noteColumns) FROM notes
        WHERE account_id = ?1 AND (?4 IS NULL OR instr(mynotes_fold(content), ?4) > 0)
        ORDER BY sort_key DESC, id DESC
        LIMIT ?5
        """

    /// After a cursor, two seeks: the rest of the cursor's own date, then the older dates.
    /// A row-value bound `(sort_key, id) < (?2, ?3)` seeks on `sort_key` alone, so among
    /// notes of one date (common: a bare date is one point in time) every page would walk
    /// from that date's newest note, and an account's pages would cost its size squared.
    private static let pageAfterCursor = """
        SELECT \(noteColumns) FROM (
            SELECT * FROM (
                SELECT \(noteColumns), sort_key FROM notes
                WHERE account_id = ?1 AND sort_key = ?2 AND id < ?3
                    AND (?4 IS NULL OR instr(mynotes_fold(content), ?4) > 0)
                ORDER BY sort_key DESC, id DESC LIMIT ?5)
            UNION ALL
            SELECT * FROM (
                SELECT \(noteColumns), sort_key FROM notes
                WHERE account_id = ?1 AND sort_key < ?2
                    AND (?4 IS NULL OR instr(mynotes_fold(content), ?4) > 0)
                ORDER BY sort_key DESC, id DESC LIMIT ?5))
        ORDER BY sort_key DESC, id DESC
        LIMIT ?5
        """

    public func note(id: Int64, account: Int64) async throws(StoreError) -> Note? {
        try await read { connection throws(SQLiteError) in
            try Self.note(id: id, account: account, on: connection)
        }
    }

    public func addNote(
        _ draft: NoteDraft, account: Int64, quota: NoteQuota
    ) async throws(StoreError) -> Note {
        let searchIndexer = self.searchIndexer
        let note = try await writer.perform(touching: { _ in .account(account) }) {
            connection throws(StoreError) in
            // The totals are the triggers' (migration account-usage-totals), read in this
            // write's transaction: no other write comes between the check and the insert.
            if quota != .unlimited {
                let held = try Self.sqlite { () throws(SQLiteError) in
                    let usage = try connection.statement(
                        "SELECT note_count, note_bytes FROM accounts WHERE id = ?")
                    try usage.bind(.integer(account))
                    return try usage.step() ? (usage.int64(0), usage.int64(1)) : (0, 0)
                }
                if let limit = quota.exceeded(
                    addingNoteOf: draft.content.utf8.count, toNotes: Int(held.0),
                    ofBytes: Int(held.1))
                {
                    throw .quotaExceeded(limit)
                }
            }
            return try Self.sqlite { () throws(SQLiteError) in
                let insert = try connection.statement(
                    """
                    INSERT INTO notes (account_id, date, sort_key, content, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    RETURNING \(Self.noteColumns)
                    """)
                let now = Self.now()
                try insert.bind(
                    .integer(account), .text(draft.date.description), .text(draft.date.sortKey),
                    .text(draft.content), .integer(now), .integer(now))
                _ = try insert.step()
                searchIndexer.added()  // search index: the note waits for a batch
                return try Self.note(from: insert)
            }
        }
        changeObservers.post(.account(account))
        return note
    }

    public func updateNote(
        id: Int64, account: Int64, change: NoteChange, precondition: WritePrecondition,
        quota: NoteQuota
    ) async throws(StoreError) -> ConditionalWrite<Note> {
        let searchIndexer = self.searchIndexer
        let outcome = try await writer.perform(touching: { _ in .account(account) }) {
            connection throws(StoreError) in
            let refusal: ConditionalWrite<Note>? = try Self.sqlite { () throws(SQLiteError) in
                try Self.refusal(precondition, id: id, account: account, on: connection)
            }
            if let refusal { return refusal }
            if let content = change.content, quota.bytes != nil {
                let held = try Self.sqlite { () throws(SQLiteError) in
                    try Self.heldBytes(replacing: id, account: account, on: connection)
                }
                if let held,
                    let limit = quota.exceeded(
                        growingBy: content.utf8.count - held.note, from: held.account)
                {
                    throw .quotaExceeded(limit)
                }
            }
            let written = try Self.sqlite { () throws(SQLiteError) in
                try Self.update(
                    id: id, account: account, change: change, precondition: precondition,
                    on: connection)
            }
            if case .applied = written, change.content != nil || change.date != nil {
                searchIndexer.added()  // search index: the note waits for a batch
            }
            return written
        }
        if case .applied = outcome { changeObservers.post(.account(account)) }
        return outcome
    }

    /// The account's content bytes and the note's own, inside the write's transaction;
    /// `nil` when the account has no such note.
    private static func heldBytes(
        replacing id: Int64, account: Int64, on connection: SQLiteConnection
    ) throws(SQLiteError) -> (account: Int, note: Int)? {
        let statement = try connection.statement(
            """
            SELECT a.note_bytes, length(CAST(n.content AS BLOB))
            FROM notes n JOIN accounts a ON a.id = n.account_id
            WHERE n.id = ? AND n.account_id = ?
            """)
        try statement.bind(.integer(id), .integer(account))
        guard try statement.step() else { return nil }
        return (Int(statement.int64(0)), Int(statement.int64(1)))
    }

    private static func update(
        id: Int64, account: Int64, change: NoteChange, precondition: WritePrecondition,
        on connection: SQLiteConnection
    ) throws(SQLiteError) -> ConditionalWrite<Note> {
        // Fields left out keep the value the row has now, inside this transaction.
        let update = try connection.statement(
            """
            UPDATE notes SET date = coalesce(?1, date), sort_key = coalesce(?2, sort_key),
                content = coalesce(?3, content), updated_at = ?4, version = version + 1
            WHERE id = ?5 AND account_id = ?6
            RETURNING \(Self.noteColumns)
            """)
        try update.bind(
            change.date.map { .text($0.description) } ?? .null,
            change.date.map { .text($0.sortKey) } ?? .null,
            change.content.map(SQLiteValue.text) ?? .null, .integer(Self.now()),
            .integer(id), .integer(account))
        // The search index forgets the old content (and the key of the old date) before
        // the row changes (see SQLiteSearchIndex.willChange); a failed write rolls both back.
        if change.content != nil || change.date != nil {
            try SQLiteSearchIndex.willChange(id: id, account: account, on: connection)
        }
        if try update.step() { return .applied(try Self.note(from: update)) }
        return precondition == .exists ? .preconditionFailed(current: nil) : .notFound
    }

    public func removeNote(
        id: Int64, account: Int64, precondition: WritePrecondition
    ) async throws(StoreError) -> ConditionalWrite<Void> {
        let outcome: ConditionalWrite<Void> = try await writing(
            touching: { _ in .account(account) }
        ) { connection throws(SQLiteError) in
            if let refusal: ConditionalWrite<Void> = try Self.refusal(
                precondition, id: id, account: account, on: connection)
            {
                return refusal
            }
            try SQLiteSearchIndex.remove(id: id, account: account, on: connection)  // search index
            let delete = try connection.statement(
                "DELETE FROM notes WHERE id = ? AND account_id = ?")
            try delete.bind(.integer(id), .integer(account)).run()
            if connection.changes > 0 { return .applied(()) }
            return precondition == .exists ? .preconditionFailed(current: nil) : .notFound
        }
        if case .applied = outcome { changeObservers.post(.account(account)) }
        return outcome
    }

    /// What a write made on condition of a version answers instead of writing, or `nil`
    /// when it may go ahead: read inside the write's own transaction, so no other write can
    /// come between the check and the change.
    private static func refusal<Value>(
        _ precondition: WritePrecondition, id: Int64, account: Int64,
        on connection: SQLiteConnection
    ) throws(SQLiteError) -> ConditionalWrite<Value>? {
        guard case .matches(let versions) = precondition else { return nil }
        guard let current = try note(id: id, account: account, on: connection) else {
            return .notFound
        }
        return versions.contains(current.version) ? nil : .preconditionFailed(current: current)
    }

    /// The note as the connection sees it: inside a write, as that write's transaction does.
    private static func note(
        id: Int64, account: Int64, on connection: SQLiteConnection
    ) throws(SQLiteError) -> Note? {
        let statement = try connection.statement(
            "SELECT \(noteColumns) FROM notes WHERE id = ? AND account_id = ?")
        try statement.bind(.integer(id), .integer(account))
        return try statement.step() ? try note(from: statement) : nil
    }

    // MARK: Helpers

    /// A read on one of the reader executor's threads.
    func read<Value: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(SQLiteError) -> Value
    ) async throws(StoreError) -> Value {
        let readers = self.readers
        searchIndexer.noteActivity()  // the search index's batches wait for a quiet store
        let result: Result<Value, StoreError>
        // The wait for a reader thread, a metric for /metrics.
        let (queued, readWait) = (MonotonicTime.nanoseconds, statistics.readWait)
        do throws(BoundedExecutorError) {
            result = try await reading.run {
                readWait.observe(MonotonicTime.nanoseconds - queued)
                return Result { () throws(StoreError) in try readers.read(body) }
            }
        } catch {
            switch error {
            case .overloaded: throw .overloaded(retryAfter: retryAfter)
            case .closed: throw .closed
            }
        }
        return try result.get()
    }

    /// A write whose only failures are SQLite's, touching the accounts `scope` names of
    /// its result (by default any: every kept answer is then stale).
    func writing<Value: Sendable>(
        touching scope: @escaping (Value) -> SQLiteChangeWatch.Scope = { _ in .database },
        _ body: @escaping (SQLiteConnection) throws(SQLiteError) -> Value
    ) async throws(StoreError) -> Value {
        try await writer.perform(touching: scope) { connection throws(StoreError) in
            try Self.sqlite { () throws(SQLiteError) in try body(connection) }
        }
    }

    /// The account a write found and changed, if any.
    private static func touched(_ account: Int64?) -> SQLiteChangeWatch.Scope {
        .accounts(account.map { [$0] } ?? [])
    }

    /// Runs SQLite calls, reporting their failure as the store's.
    private static func sqlite<Value>(
        _ body: () throws(SQLiteError) -> Value
    ) throws(StoreError) -> Value {
        do throws(SQLiteError) {
            return try body()
        } catch {
            throw StoreError(error)
        }
    }

    /// Milliseconds since 1970, the store's clock for created and updated times.
    private static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }

    static func account(from statement: SQLiteStatement) -> Account {
        Account(
            id: statement.int64(0), email: statement.text(1),
            passwordHash: statement.isNull(2) ? nil : statement.text(2),
            createdAt: statement.int64(3))
    }

    /// A token's record from the columns hash, kind, created_at, last_used_at. A kind this
    /// code does not know (written by a newer version) is taken for a session, which expires.
    static func session(from statement: SQLiteStatement, startingAt first: Int32 = 0) -> Session {
        Session(
            tokenHash: statement.blob(first),
            kind: TokenKind(rawValue: statement.text(first + 1)) ?? .session,
            createdAt: statement.int64(first + 2), lastUsedAt: statement.int64(first + 3))
    }

    /// A note from the columns of ``noteColumns``, from `first` on; a date that does not
    /// parse (a hand-edited database) fails the read rather than the server.
    static func note(
        from statement: SQLiteStatement, startingAt first: Int32 = 0
    ) throws(SQLiteError) -> Note {
        let id = statement.int64(first)
        guard let date = statement.noteDate(first + 1) else {
            throw .corruptRow(
                StoreError.unreadableDate(statement.text(first + 1), ofNote: id),
                sql: statement.sql)
        }
        return Note(
            id: id, date: date, content: statement.text(first + 2),
            createdAt: statement.int64(first + 3), updatedAt: statement.int64(first + 4),
            version: statement.int64(first + 5))
    }
}
