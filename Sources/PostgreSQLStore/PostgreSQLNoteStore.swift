import BoundedExecution
import Foundation
import MyNotesDomain
import StorageSupport

/// The shared store: one PostgreSQL database that any number of servers use at once.
///
/// Every statement runs on the store's own threads, one per pooled connection
/// (``StoreLimits/connections``, `--db-pool`), never on a thread that serves connections:
/// the caller's task suspends until its statement is done. Statements are prepared once
/// per connection. Each write is its own transaction, committed with `synchronous_commit`
/// on before it returns, and PostgreSQL groups the commits that wait for one flush; adds
/// to one account, which would otherwise wait for each other's flush on the account's row
/// lock, are committed together in batches (``PostgreSQLAddBatcher``). At most
/// `readers.queueLimit + writeQueueLimit` statements wait for a thread; past that, and
/// while the database cannot be reached, calls fail at once with
/// ``StoreError/overloaded(retryAfter:)``. A connection the server closed is replaced on
/// its next use, so a restarted database is used again without a restart of the server.
///
/// ```swift
/// let store = try PostgreSQLNoteStore(conninfo: "postgres://mynotes@db.internal/mynotes")
/// defer { store.close() }
/// let notes = try await store.notes(account: 1, page: NotePage(limit: 20))
/// ```
public final class PostgreSQLNoteStore: NoteStore {
    /// Where the database is, with any password in it hidden.
    public let location: String
    let pool: PostgreSQLConnectionPool
    let executor: BoundedExecutor
    /// Adds, committed in batches per account.
    let adds: PostgreSQLAddBatcher
    /// The hottest reads, sent in batches: every request's token check, and the legacy
    /// query's first page (the check and the notes in one statement).
    let batchedReads: PostgreSQLReadBatcher
    /// The figures for `/metrics`: the adds' waits, batch sizes and commits.
    let statistics: StoreStatistics
    private let retryAfter: Duration
    /// The change observers (the change feed's live streams, the search indexer), and the
    /// listener that tells them of every server's commits (PostgreSQLNoteStore+Changes).
    let changeObservers = ChangeObservers()
    let changeListener: PostgreSQLChangeListener

    /// Keeps the search entries up to date with the notes, off the writes' commits.
    let searchIndexer: PostgreSQLSearchIndexer
    /// ``StoreMonitoring/warnings``: what the indexer will leave to PostgreSQL.
    public let warnings: [String]

    /// Connects, brings the schema up to date under an advisory lock (so servers that
    /// start together migrate once), and refuses a schema newer than this code knows.
    /// `migrating` hears how a migration of a database that holds notes goes (building the
    /// search index over a million notes takes a minute or more).
    public init(
        conninfo: String, limits: StoreLimits = StoreLimits(),
        migrating: @escaping @Sendable (PostgreSQLMigrationProgress) -> Void = { _ in }
    ) throws(StoreError) {
        location = PostgreSQLConninfo.redacted(conninfo)
        pool = PostgreSQLConnectionPool(
            conninfo: conninfo, capacity: limits.connections, opened: Self.prepareSearch)
        changeListener = PostgreSQLChangeListener(conninfo: conninfo, observers: changeObservers)
        let statistics = StoreStatistics()
        self.statistics = statistics
        searchIndexer = PostgreSQLSearchIndexer(conninfo: conninfo, statistics: statistics)
        retryAfter = limits.retryAfter
        let unknown: [String]
        let pending: PostgreSQLSearchIndexer.PendingEntries
        // Before the pool has a connection: the pool's connections prepare statements over
        // the schema that this brings up to date.
        do throws(PostgreSQLError) {
            let connection = try PostgreSQLConnection(conninfo: conninfo)
            unknown = try PostgreSQLMigrations.apply(
                on: connection, conninfo: conninfo, progress: migrating)
            // Indexes it cannot tell about (a newer schema's) are no reason not to serve:
            // no warning then.
            pending = (try? PostgreSQLSearchIndexer.pendingEntries(on: connection)) ?? .merged
            // The pool's first connection, prepared before the store serves.
            if unknown.isEmpty { try pool.adopt(connection) }
        } catch {
            pool.close()
            throw .cannotConnect(location: location, cause: error)
        }
        guard unknown.isEmpty else {
            pool.close()
            throw .newerSchema(location: location, unknownMigrations: unknown)
        }
        warnings = pending == .left ? [PostgreSQLSearchIndexer.notOwnerWarning] : []
        executor = BoundedExecutor(
            name: "postgres",
            limits: ExecutorLimits(
                threads: pool.capacity,
                queueLimit: limits.readers.queueLimit + limits.writeQueueLimit),
            resumedTasks: .continueHere)
        batchedReads = PostgreSQLReadBatcher(
            pool: pool, executor: executor, concurrency: max(2, UsableCores.count),
            queueLimit: limits.readers.queueLimit, retryAfter: limits.retryAfter)
        adds = PostgreSQLAddBatcher(
            pool: pool, executor: executor, queueLimit: limits.writeQueueLimit,
            retryAfter: limits.retryAfter, statistics: statistics)
        // The indexer hears of every server's writes from the listener.
        changeObservers.add { [searchIndexer] in searchIndexer.changed($0) }
        changeListener.start()
        searchIndexer.start()
    }

    public func close() {
        changeListener.stop()
        searchIndexer.stop()
        executor.close()
        pool.close()
    }

    deinit {
        close()
    }

    // MARK: Running statements

    /// Runs `body` on one of the store's threads with a pooled connection. A read
    /// (`retry: .once`) that lost its connection runs once more on a new one.
    func run<Value: Sendable>(
        retry: PostgreSQLConnectionPool.Retry,
        _ body: @escaping @Sendable (PostgreSQLConnection) throws(PostgreSQLError) -> Value
    ) async throws(StoreError) -> Value {
        let pool = self.pool
        let retryAfter = self.retryAfter
        let result: Result<Value, StoreError>
        do throws(BoundedExecutorError) {
            result = try await executor.run {
                Result { () throws(StoreError) in
                    do throws(PostgreSQLPoolError) {
                        return try pool.withConnection(retry: retry, body)
                    } catch {
                        throw StoreError(error, retryAfter: retryAfter)
                    }
                }
            }
        } catch {
            throw StoreError(error, retryAfter: retryAfter)
        }
        return try result.get()
    }

    func read<Value: Sendable>(
        _ body: @escaping @Sendable (PostgreSQLConnection) throws(PostgreSQLError) -> Value
    ) async throws(StoreError) -> Value {
        try await run(retry: .once, body)
    }

    func write<Value: Sendable>(
        _ body: @escaping @Sendable (PostgreSQLConnection) throws(PostgreSQLError) -> Value
    ) async throws(StoreError) -> Value {
        try await run(retry: .never, body)
    }

    // MARK: Accounts

    static let accountColumns = "id, email, password_hash, created_at"
    /// Milliseconds since 1970 on the database's clock: one clock for every server.
    static let now = "floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint"

    /// What the unique index on emails compares: the email with ASCII letters lowered, as
    /// SQLite's `NOCASE` does (other letters keep their case).
    static func emailKey(_ email: String) -> String {
        String(
            decoding: email.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    public func account(email: String) async throws(StoreError) -> Account? {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                "SELECT \(Self.accountColumns) FROM accounts WHERE email_key = $1",
                .text(Self.emailKey(email)))
            return rows.count > 0 ? Self.account(rows, 0) : nil
        }
    }

    public func account(
        email: String, presenting tokenHash: [UInt8]?
    ) async throws(StoreError) -> TokenCheck? {
        // Every authenticated request's first read: sent with the other reads waiting.
        try await batchedReads.read(
            Self.tokenCheckByEmail, Self.tokenCheckParameters(email: email, tokenHash: tokenHash)
        ) { rows, _ throws(PostgreSQLError) in
            rows.count > 0 && !rows.isNull(0, 0) ? Self.tokenCheck(rows) : nil
        }
    }

    /// One row whether or not the account exists: the token is looked up in its own index
    /// either way, so a missing account costs what a wrong token does.
    static func tokenCheck(
        email: String, presenting tokenHash: [UInt8]?, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> TokenCheck? {
        let rows = try connection.query(
            tokenCheckByEmail,
            parameters: tokenCheckParameters(email: email, tokenHash: tokenHash))
        guard rows.count > 0, !rows.isNull(0, 0) else { return nil }
        return tokenCheck(rows)
    }

    private static let tokenCheckByEmail = """
        SELECT a.id, a.email, a.password_hash, a.created_at,
            t.account_id, t.hash, t.kind, t.created_at, t.last_used_at
        FROM (SELECT 1) AS one LEFT JOIN accounts a ON a.email_key = $2
            LEFT JOIN tokens t ON t.hash = $1
        """

    private static func tokenCheckParameters(
        email: String, tokenHash: [UInt8]?
    ) -> [PostgreSQLValue] {
        [tokenHash.map(PostgreSQLValue.bytes) ?? .null, .text(emailKey(email))]
    }

    /// The check from a row of the account's columns, then the token's holder and its
    /// ``sessionColumns``: the session only when the account holds the token.
    static func tokenCheck(_ rows: PostgreSQLRows) -> TokenCheck {
        let holds = !rows.isNull(0, 4) && rows.int64(0, 4) == rows.int64(0, 0)
        return TokenCheck(
            account: account(rows, 0), holdsToken: holds,
            session: holds ? session(rows, 0, startingAt: 5) : nil)
    }

    public func account(tokenHash: [UInt8]) async throws(StoreError) -> TokenCheck? {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                """
                SELECT a.id, a.email, a.password_hash, a.created_at, \(Self.sessionColumns)
                FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.hash = $1
                """, .bytes(tokenHash))
            guard rows.count > 0 else { return nil }
            return TokenCheck(
                account: Self.account(rows, 0), holdsToken: true,
                session: Self.session(rows, 0, startingAt: 4))
        }
    }

    public func createAccount(
        email: String, tokenHash: [UInt8]?, passwordHash: String?
    ) async throws(StoreError) -> Account {
        do {
            // One statement, so one transaction: the account and its first token together.
            // The unique index on the email key decides a duplicate in the insert itself.
            return try await write { connection throws(PostgreSQLError) in
                let rows = try connection.query(
                    """
                    WITH account AS (
                        INSERT INTO accounts (email, email_key, password_hash, created_at)
                        VALUES ($1, $2, $3, \(Self.now))
                        RETURNING \(Self.accountColumns)),
                    token AS (
                        INSERT INTO tokens (account_id, hash, created_at, last_used_at, kind)
                        SELECT id, $4::bytea, created_at, created_at, $5::text FROM account
                        WHERE $4::bytea IS NOT NULL)
                    SELECT \(Self.accountColumns) FROM account
                    """, .text(email), .text(Self.emailKey(email)),
                    passwordHash.map(PostgreSQLValue.text) ?? .null,
                    tokenHash.map(PostgreSQLValue.bytes) ?? .null,
                    // With a password it is a sign-up, whose token is a session; without,
                    // the operator's `accounts add`, whose token is an access key.
                    .text((passwordHash == nil ? TokenKind.accessKey : .session).rawValue))
                return Self.account(rows, 0)
            }
        } catch .database(let error as PostgreSQLError)
            where error.sqlState == PostgreSQLError.uniqueViolation
            && error.message.contains("email")
        {
            throw .duplicateEmail(email)
        }
    }

    public func allAccounts() async throws(StoreError) -> [Account] {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                "SELECT \(Self.accountColumns) FROM accounts ORDER BY email_key")
            return (0..<rows.count).map { Self.account(rows, $0) }
        }
    }

    public func removeAccount(email: String) async throws(StoreError) -> Bool {
        try await write { connection throws(PostgreSQLError) in
            try connection.query(
                "DELETE FROM accounts WHERE email_key = $1", .text(Self.emailKey(email))
            ).affectedRows > 0
        }
    }

    public func replaceTokens(email: String, tokenHash: [UInt8]) async throws(StoreError) -> Bool {
        try await write { connection throws(PostgreSQLError) in
            try connection.transaction { () throws(PostgreSQLError) in
                let found = try connection.query(
                    "SELECT id FROM accounts WHERE email_key = $1 FOR UPDATE",
                    .text(Self.emailKey(email)))
                guard found.count > 0 else { return false }
                let account = found.int64(0, 0)
                _ = try connection.query(
                    "DELETE FROM tokens WHERE account_id = $1", .integer(account))
                try Self.insertToken(tokenHash, kind: .accessKey, account: account, on: connection)
                return true
            }
        }
    }

    public func addToken(
        _ tokenHash: [UInt8], account: Int64, at createdAt: Int64
    ) async throws(StoreError) {
        try await write { connection throws(PostgreSQLError) in
            try Self.insertToken(
                tokenHash, kind: .session, account: account, at: createdAt, on: connection)
        }
    }

    public func removeToken(_ tokenHash: [UInt8]) async throws(StoreError) -> Bool {
        try await write { connection throws(PostgreSQLError) in
            try connection.query("DELETE FROM tokens WHERE hash = $1", .bytes(tokenHash))
                .affectedRows > 0
        }
    }

    // MARK: Sessions

    static let sessionColumns = "t.hash, t.kind, t.created_at, t.last_used_at"

    public func sessions(account: Int64) async throws(StoreError) -> [Session] {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                """
                SELECT \(Self.sessionColumns) FROM tokens t
                WHERE t.account_id = $1 ORDER BY t.created_at, t.hash
                """, .integer(account))
            return (0..<rows.count).map { Self.session(rows, $0) }
        }
    }

    public func touchToken(_ tokenHash: [UInt8], usedAt: Int64) async throws(StoreError) {
        try await write { connection throws(PostgreSQLError) in
            _ = try connection.query(
                "UPDATE tokens SET last_used_at = greatest(last_used_at, $1) WHERE hash = $2",
                .integer(usedAt), .bytes(tokenHash))
        }
    }

    public func removeTokens(account: Int64, keeping: [UInt8]?) async throws(StoreError) -> Int {
        try await write { connection throws(PostgreSQLError) in
            try Self.removeTokens(account: account, keeping: keeping, on: connection)
        }
    }

    public func removeSessions(
        lastUsedBefore: Int64?, createdBefore: Int64?
    ) async throws(StoreError) -> Int {
        try await write { connection throws(PostgreSQLError) in
            try connection.query(
                """
                DELETE FROM tokens WHERE kind = $1
                    AND (last_used_at < coalesce($2::bigint, -1)
                        OR created_at < coalesce($3::bigint, -1))
                """, .text(TokenKind.session.rawValue),
                lastUsedBefore.map(PostgreSQLValue.integer) ?? .null,
                createdBefore.map(PostgreSQLValue.integer) ?? .null
            ).affectedRows
        }
    }

    public func setPasswordHash(
        _ passwordHash: String, account: Int64, keepingToken: [UInt8]?
    ) async throws(StoreError) -> Bool {
        try await write { connection throws(PostgreSQLError) in
            try connection.transaction { () throws(PostgreSQLError) in
                let updated = try connection.query(
                    "UPDATE accounts SET password_hash = $1 WHERE id = $2",
                    .text(passwordHash), .integer(account))
                guard updated.affectedRows > 0 else { return false }
                _ = try Self.removeTokens(account: account, keeping: keepingToken, on: connection)
                return true
            }
        }
    }

    private static func removeTokens(
        account: Int64, keeping: [UInt8]?, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> Int {
        try connection.query(
            "DELETE FROM tokens WHERE account_id = $1 AND hash IS DISTINCT FROM $2::bytea",
            .integer(account), keeping.map(PostgreSQLValue.bytes) ?? .null
        ).affectedRows
    }

    /// A token made now on the database's clock unless `createdAt` says when.
    private static func insertToken(
        _ tokenHash: [UInt8], kind: TokenKind, account: Int64, at createdAt: Int64? = nil,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) {
        _ = try connection.query(
            """
            WITH made AS (SELECT coalesce($3::bigint, \(now)) AS ms)
            INSERT INTO tokens (account_id, hash, created_at, last_used_at, kind)
            SELECT $1::bigint, $2::bytea, ms, ms, $4::text FROM made
            """, .integer(account), .bytes(tokenHash),
            createdAt.map(PostgreSQLValue.integer) ?? .null, .text(kind.rawValue))
    }

    /// A token's record from the columns hash, kind, created_at, last_used_at. A kind this
    /// code does not know (written by a newer version) is taken for a session, which expires.
    static func session(_ rows: PostgreSQLRows, _ row: Int, startingAt first: Int32 = 0)
        -> Session
    {
        Session(
            tokenHash: rows.bytes(row, first),
            kind: TokenKind(rawValue: rows.text(row, first + 1)) ?? .session,
            createdAt: rows.int64(row, first + 2), lastUsedAt: rows.int64(row, first + 3))
    }

    static func account(_ rows: PostgreSQLRows, _ row: Int) -> Account {
        Account(
            id: rows.int64(row, 0), email: rows.text(row, 1),
            passwordHash: rows.optionalText(row, 2), createdAt: rows.int64(row, 3))
    }
}
