import Locking
import MyNotesDomain

/// At most `capacity` connections to one database, opened when first needed and lent to
/// one thread at a time. The store runs as many threads as the pool holds connections, so
/// a thread always finds one. A connection the server closed (a restart, a failover) is
/// dropped when it is found so, and the next use opens a new one: the pool reconnects by
/// itself. Each connection it opens is first given to `opened`, which prepares what the
/// connection's first requests would otherwise pay for.
final class PostgreSQLConnectionPool: Sendable {
    private struct State {
        var idle: [PostgreSQLConnection] = []
        var open = 0
        var closed = false
    }

    let conninfo: String
    let capacity: Int
    private let opened: @Sendable (PostgreSQLConnection) throws(PostgreSQLError) -> Void
    private let state = Lock(State())

    init(
        conninfo: String, capacity: Int,
        opened: @escaping @Sendable (PostgreSQLConnection) throws(PostgreSQLError) -> Void
    ) {
        self.conninfo = conninfo
        self.capacity = max(1, capacity)
        self.opened = opened
    }

    /// Connections open now, lent or idle (for `/metrics`).
    var openConnections: Int { state.withLock { $0.open } }

    /// How a failed body is treated when it lost its connection.
    enum Retry {
        /// Run it once more on a new connection: a read, which changed nothing.
        case once
        /// Report the failure: a write whose outcome the client must learn.
        case never
    }

    /// How many times a body runs while PostgreSQL keeps rolling it back for a conflict
    /// (``PostgreSQLError/isConflict``) before the pool reports the conflict.
    static let conflictAttempts = 5

    /// Runs `body` with a connection. A connection that cannot be opened (the server is
    /// down or refuses) is ``StoreError/overloaded(retryAfter:)``-like: nothing was done,
    /// so the caller answers "retry later"; the pool reports it as `unreachable`.
    ///
    /// A body that PostgreSQL rolled back for a conflict runs again, reads and writes alike
    /// (``conflictAttempts`` in all): every body is one transaction, one statement, or
    /// statements that may run twice (a conditional write's refusal reads only what the
    /// write left unchanged).
    func withConnection<Value>(
        retry: Retry, _ body: (PostgreSQLConnection) throws(PostgreSQLError) -> Value
    ) throws(PostgreSQLPoolError) -> Value {
        var attemptsLeft = retry == .once ? 2 : 1
        while true {
            attemptsLeft -= 1
            let connection = try borrow()
            do throws(PostgreSQLError) {
                let value = try Self.runAgainAfterConflicts(body, on: connection)
                giveBack(connection)
                return value
            } catch {
                giveBack(connection)
                guard error.isConnectionLost, attemptsLeft > 0 else { throw .failed(error) }
            }
        }
    }

    /// Runs `body`, and again after a conflict. No order of the tables keeps every pair of
    /// statements from waiting on each other: removing an account deletes its indexer's
    /// progress row once it holds the account's row, while the indexer's batch holds that
    /// progress row and then needs the account's row for its chunks; `migrate --force`'s
    /// TRUNCATE takes its tables in one order and the indexer's lookups in the other.
    /// PostgreSQL ends such a wait after its `deadlock_timeout` (a second by default) by
    /// failing one side, which changed nothing and released its locks, so the other
    /// finishes and the failed one succeeds when it runs again.
    private static func runAgainAfterConflicts<Value>(
        _ body: (PostgreSQLConnection) throws(PostgreSQLError) -> Value,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> Value {
        var attempt = 1
        while true {
            do throws(PostgreSQLError) {
                return try body(connection)
            } catch
                where error.isConflict && attempt < conflictAttempts
            {
                // A pipeline's transaction is left open by the failure: ended here.
                if connection.isInTransaction { try connection.execute("ROLLBACK") }
                guard connection.isReusable else { throw error }
                attempt += 1
            }
        }
    }

    /// Takes in a connection opened elsewhere (the one that migrated the schema), given to
    /// `opened` first like those the pool opens, as one of its idle ones, if it has room.
    func adopt(_ connection: PostgreSQLConnection) throws(PostgreSQLError) {
        let room = state.withLock { state in
            guard !state.closed, state.open < capacity else { return false }
            state.open += 1
            return true
        }
        guard room else { return }
        try prepare(connection)
        giveBack(connection)
    }

    /// Gives a connection counted in `open` to `opened`; one that fails is dropped.
    private func prepare(_ connection: PostgreSQLConnection) throws(PostgreSQLError) {
        do throws(PostgreSQLError) {
            try opened(connection)
        } catch {
            state.withLock { $0.open -= 1 }
            throw error
        }
    }

    private func borrow() throws(PostgreSQLPoolError) -> PostgreSQLConnection {
        let lent = state.withLock { state -> Result<PostgreSQLConnection?, PostgreSQLPoolError> in
            if state.closed { return .failure(.closed) }
            while let connection = state.idle.popLast() {
                if connection.isUsable { return .success(connection) }
                state.open -= 1
            }
            guard state.open < capacity else {
                return .failure(.failed(Self.exhausted(capacity)))
            }
            state.open += 1
            return .success(nil)
        }
        if let connection = try lent.get() { return connection }
        let connection: PostgreSQLConnection
        do throws(PostgreSQLError) {
            connection = try PostgreSQLConnection(conninfo: conninfo)
        } catch {
            state.withLock { $0.open -= 1 }
            throw .unreachable(error)
        }
        do throws(PostgreSQLError) {
            try prepare(connection)
        } catch {
            throw .failed(error)
        }
        return connection
    }

    private func giveBack(_ connection: PostgreSQLConnection) {
        state.withLock { state in
            if state.closed || !connection.isReusable {
                state.open -= 1
            } else {
                state.idle.append(connection)
            }
        }
    }

    /// Closes the idle connections; those lent close when given back.
    func close() {
        state.withLock { state in
            state.closed = true
            state.open -= state.idle.count
            state.idle.removeAll()
        }
    }

    private static func exhausted(_ capacity: Int) -> PostgreSQLError {
        PostgreSQLError(
            sqlState: "53300", message: "all \(capacity) connections of the pool are in use",
            sql: nil)
    }
}

/// Why the pool could not run a body.
enum PostgreSQLPoolError: Error {
    /// No connection could be opened: nothing was sent.
    case unreachable(PostgreSQLError)
    /// The body failed (or, for a read, failed twice).
    case failed(PostgreSQLError)
    case closed
}
