import BoundedExecution
import Foundation

/// The shared store: one PostgreSQL database that any number of servers use at once.
///
/// Every statement runs on the store's own threads, one per pooled connection
/// (``StoreLimits/connections``, `--db-pool`), never on a thread that serves connections:
/// the caller's task suspends until its statement is done. Statements are prepared once
/// per connection. Each write is its own transaction, committed with `synchronous_commit`
/// on before it returns, and PostgreSQL groups the commits that wait for one flush. At most
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
    private let executor: BoundedExecutor
    private let retryAfter: Duration

    /// Connects, brings the schema up to date under an advisory lock (so servers that
    /// start together migrate once), and refuses a schema newer than this code knows.
    public init(conninfo: String, limits: StoreLimits = StoreLimits()) throws(StoreError) {
        location = StoreLocation.redacted(conninfo)
        pool = PostgreSQLConnectionPool(conninfo: conninfo, capacity: limits.connections)
        retryAfter = limits.retryAfter
        let unknown: [String]
        do throws(PostgreSQLPoolError) {
            unknown = try pool.withConnection(retry: .never) {
                connection throws(PostgreSQLError) in
                try PostgreSQLMigrations.apply(on: connection)
            }
        } catch {
            pool.close()
            switch error {
            case .unreachable(let cause), .failed(let cause):
                throw .cannotConnect(location: location, cause: cause)
            case .closed: throw .closed
            }
        }
        guard unknown.isEmpty else {
            pool.close()
            throw .newerSchema(location: location, unknownMigrations: unknown)
        }
        executor = BoundedExecutor(
            name: "postgres",
            limits: ExecutorLimits(
                threads: pool.capacity,
                queueLimit: limits.readers.queueLimit + limits.writeQueueLimit),
            resumedTasks: .continueHere)
    }

    public func close() {
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
                        switch error {
                        // Nothing was sent: the database is down or restarting. Like a
                        // full queue, answered "retry later" (503) at once.
                        case .unreachable: throw .overloaded(retryAfter: retryAfter)
                        case .failed(let cause): throw .postgreSQL(cause)
                        case .closed: throw .closed
                        }
                    }
                }
            }
        } catch {
            switch error {
            case .overloaded: throw .overloaded(retryAfter: retryAfter)
            case .closed: throw .closed
            }
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
        try await read { connection throws(PostgreSQLError) in
            try Self.tokenCheck(email: email, presenting: tokenHash, on: connection)
        }
    }

    /// One row whether or not the account exists: the token is looked up in its own index
    /// either way, so a missing account costs what a wrong token does.
    static func tokenCheck(
        email: String, presenting tokenHash: [UInt8]?, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> TokenCheck? {
        let rows = try connection.query(
            """
            SELECT a.id, a.email, a.password_hash, a.created_at,
                (SELECT t.account_id FROM tokens t WHERE t.hash = $1)
            FROM (SELECT 1) AS one LEFT JOIN accounts a ON a.email_key = $2
            """, tokenHash.map(PostgreSQLValue.bytes) ?? .null, .text(emailKey(email)))
        guard rows.count > 0, !rows.isNull(0, 0) else { return nil }
        let holds = !rows.isNull(0, 4) && rows.int64(0, 4) == rows.int64(0, 0)
        return TokenCheck(account: account(rows, 0), holdsToken: holds)
    }

    public func account(tokenHash: [UInt8]) async throws(StoreError) -> Account? {
        try await read { connection throws(PostgreSQLError) in
            let rows = try connection.query(
                """
                SELECT a.id, a.email, a.password_hash, a.created_at
                FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.hash = $1
                """, .bytes(tokenHash))
            return rows.count > 0 ? Self.account(rows, 0) : nil
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
                        INSERT INTO tokens (account_id, hash, created_at)
                        SELECT id, $4::bytea, created_at FROM account WHERE $4::bytea IS NOT NULL)
                    SELECT \(Self.accountColumns) FROM account
                    """, .text(email), .text(Self.emailKey(email)),
                    passwordHash.map(PostgreSQLValue.text) ?? .null,
                    tokenHash.map(PostgreSQLValue.bytes) ?? .null)
                return Self.account(rows, 0)
            }
        } catch .postgreSQL(let error)
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
                try Self.insertToken(tokenHash, account: account, on: connection)
                return true
            }
        }
    }

    public func addToken(_ tokenHash: [UInt8], account: Int64) async throws(StoreError) {
        try await write { connection throws(PostgreSQLError) in
            try Self.insertToken(tokenHash, account: account, on: connection)
        }
    }

    public func removeToken(_ tokenHash: [UInt8]) async throws(StoreError) -> Bool {
        try await write { connection throws(PostgreSQLError) in
            try connection.query("DELETE FROM tokens WHERE hash = $1", .bytes(tokenHash))
                .affectedRows > 0
        }
    }

    public func setPasswordHash(_ passwordHash: String, email: String) async throws(StoreError)
        -> Bool
    {
        try await write { connection throws(PostgreSQLError) in
            try connection.query(
                "UPDATE accounts SET password_hash = $1 WHERE email_key = $2",
                .text(passwordHash), .text(Self.emailKey(email))
            ).affectedRows > 0
        }
    }

    private static func insertToken(
        _ tokenHash: [UInt8], account: Int64, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) {
        _ = try connection.query(
            "INSERT INTO tokens (account_id, hash, created_at) VALUES ($1, $2, \(now))",
            .integer(account), .bytes(tokenHash))
    }

    static func account(_ rows: PostgreSQLRows, _ row: Int) -> Account {
        Account(
            id: rows.int64(row, 0), email: rows.text(row, 1),
            passwordHash: rows.optionalText(row, 2), createdAt: rows.int64(row, 3))
    }
}
