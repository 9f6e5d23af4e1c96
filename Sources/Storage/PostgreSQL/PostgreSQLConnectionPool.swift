import Locking

/// At most `capacity` connections to one database, opened when first needed and lent to
/// one thread at a time. The store runs as many threads as the pool holds connections, so
/// a thread always finds one. A connection the server closed (a restart, a failover) is
/// dropped when it is found so, and the next use opens a new one: the pool reconnects by
/// itself.
final class PostgreSQLConnectionPool: Sendable {
    private struct State {
        var idle: [PostgreSQLConnection] = []
        var open = 0
        var closed = false
    }

    let conninfo: String
    let capacity: Int
    private let state = Lock(State())

    init(conninfo: String, capacity: Int) {
        self.conninfo = conninfo
        self.capacity = max(1, capacity)
    }

    /// Connections open now, lent or idle (issue 13's `/metrics`).
    var openConnections: Int { state.withLock { $0.open } }

    /// How a failed body is treated when it lost its connection.
    enum Retry {
        /// Run it once more on a new connection: a read, which changed nothing.
        case once
        /// Report the failure: a write whose outcome the client must learn.
        case never
    }

    /// Runs `body` with a connection. A connection that cannot be opened (the server is
    /// down or refuses) is ``StoreError/overloaded(retryAfter:)``-like: nothing was done,
    /// so the caller answers "retry later"; the pool reports it as `unreachable`.
    func withConnection<Value>(
        retry: Retry, _ body: (PostgreSQLConnection) throws(PostgreSQLError) -> Value
    ) throws(PostgreSQLPoolError) -> Value {
        var attemptsLeft = retry == .once ? 2 : 1
        while true {
            attemptsLeft -= 1
            let connection = try borrow()
            do throws(PostgreSQLError) {
                let value = try body(connection)
                giveBack(connection)
                return value
            } catch {
                giveBack(connection)
                guard error.isConnectionLost, attemptsLeft > 0 else { throw .failed(error) }
            }
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
        do throws(PostgreSQLError) {
            return try PostgreSQLConnection(conninfo: conninfo)
        } catch {
            state.withLock { $0.open -= 1 }
            throw .unreachable(error)
        }
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
