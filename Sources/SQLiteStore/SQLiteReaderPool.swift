import Locking
import MyNotesDomain

/// Read-only connections, lent to one thread at a time. WAL lets them read while
/// the writer commits; each keeps its prepared statements, so a read compiles no SQL.
final class SQLiteReaderPool: Sendable {
    private struct State {
        var idle: [SQLiteConnection] = []
        var closed = false
        /// Bumped by ``renew()``; a connection lent before is closed when it comes back.
        var generation = 0
    }

    private let path: String
    /// How much of the database file readers map: address space, not memory.
    static let memoryMapBytes = 1 << 30
    private let state = Lock(State())

    init(path: String) {
        self.path = path
    }

    func read<Value>(
        _ body: (SQLiteConnection) throws(SQLiteError) -> Value
    ) throws(StoreError) -> Value {
        let (lent, closed, generation) = state.withLock { state in
            (state.idle.popLast(), state.closed, state.generation)
        }
        guard !closed else { throw .closed }
        let connection: SQLiteConnection
        do throws(SQLiteError) {
            if let lent {
                connection = lent
            } else {
                connection = try SQLiteConnection(path: path, mode: .readOnly)
                // Pages read through a memory map instead of a read() call each: with a
                // large database most pages a query needs are not in SQLite's own cache.
                try connection.execute("PRAGMA mmap_size = \(Self.memoryMapBytes)")
            }
        } catch {
            throw .database(error)
        }
        defer {
            connection.finishStatements()
            state.withLock { state in
                if !state.closed, state.generation == generation {
                    state.idle.append(connection)
                }
            }
        }
        do throws(SQLiteError) {
            return try body(connection)
        } catch {
            throw StoreError(error)
        }
    }

    /// Closes every idle connection, and each lent one as it comes back: the next reads
    /// open new ones. The writer asks for this when it reopens the database after it was
    /// read-only, since SQLite shares one view of the `-shm` among all of them.
    func renew() {
        state.withLock { state in
            state.generation += 1
            state.idle.removeAll()
        }
    }

    func close() {
        state.withLock { state in
            state.closed = true
            state.idle.removeAll()
        }
    }
}
