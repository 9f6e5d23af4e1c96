import BoundedExecution
import Foundation
import Locking
import MyNotesDomain
import StorageSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Follows the notifications that the change-feed trigger sends at every commit of a
/// write to notes, from any server on the database (`LISTEN`), and passes each account on
/// to the store's change observers. It holds one connection of its own, outside the pool,
/// on a thread of its own that sleeps in `poll` until the server sends something.
///
/// A lost connection is opened again (waiting longer each time, up to 5 s); once it
/// listens again every observer is told that any account may have changed
/// (``ChangeSignal/anyAccount``), since notifications sent meanwhile were lost.
final class PostgreSQLChangeListener: Sendable {
    /// The channel the trigger notifies (migration change-feed); its payload is the schema
    /// of the notes written and the account's ID, `public:42`.
    static let channel = "mynotes_changes"

    private struct State {
        var started = false
        var stopped = false
        var listening = false
    }

    private let conninfo: String
    private let observers: ChangeObservers
    private let state = Lock(State())
    /// A pipe, written to stop the thread out of its `poll`: its read and write ends.
    private let wakeup: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)

    init(conninfo: String, observers: ChangeObservers) {
        self.conninfo = conninfo
        self.observers = observers
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        wakeup = (ends[0], ends[1])
    }

    deinit {
        close(wakeup.read)
        close(wakeup.write)
    }

    /// Starts listening, once; later calls do nothing.
    func start() {
        let starting = state.withLock { state in
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard starting else { return }
        let thread = Thread.named("pg-listener") { [self] in
            run()
            finished.signal()
        }
        thread.start()
    }

    /// Stops the thread and closes its connection; returns once it has.
    func stop() {
        let running = state.withLock { state in
            defer { state.stopped = true }
            return state.started && !state.stopped
        }
        guard running else { return }
        var one: UInt8 = 1
        _ = write(wakeup.write, &one, 1)
        finished.wait()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// The connection listens: every commit from now on is heard.
    var isListening: Bool { state.withLock { $0.listening } }

    private func run() {
        var delay = 100
        while !isStopped {
            do throws(PostgreSQLError) {
                let connection = try PostgreSQLConnection(conninfo: conninfo)
                try connection.execute("LISTEN \(Self.channel)")
                let schema = try connection.query("SELECT current_schema()").text(0, 0)
                delay = 100
                state.withLock { $0.listening = true }
                observers.post(.anyAccount)
                try listen(on: connection, prefix: schema + ":")
                state.withLock { $0.listening = false }
            } catch {
                state.withLock { $0.listening = false }
                // The database is down or restarting: try again a little later.
                _ = waitForEvents(socket: -1, milliseconds: Int32(delay))
                delay = min(delay * 2, 5_000)
            }
        }
    }

    /// Passes notifications on until stopped (returns) or the connection fails (throws).
    /// Only notifications whose payload starts with `prefix` (the store's schema) count.
    private func listen(on connection: PostgreSQLConnection, prefix: String)
        throws(PostgreSQLError)
    {
        while !isStopped {
            guard waitForEvents(socket: connection.socket, milliseconds: -1) else { return }
            for payload in try connection.receivedNotifications() where payload.hasPrefix(prefix) {
                if let account = Int64(payload.dropFirst(prefix.count)) {
                    observers.post(.account(account))
                }
            }
        }
    }

    /// Waits until `socket` has something to read or the timeout passes; `false` when the
    /// listener was stopped meanwhile.
    private func waitForEvents(socket: Int32, milliseconds: Int32) -> Bool {
        var descriptors = [
            pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0),
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&descriptors, socket >= 0 ? 2 : 1, milliseconds)
        return descriptors[0].revents & Int16(POLLIN) == 0
    }
}
