import Dispatch
import Foundation
import Synchronization

/// The one connection that writes, on a thread of its own, with group commit.
///
/// With `synchronous=FULL` every commit waits for an fsync (about 0.3 ms here),
/// which would cap writes near 3,000 a second. Writes that arrive while a commit is
/// under way are batched into the next transaction, each in a savepoint of its own
/// so one failing write does not undo the others; every caller is answered only
/// after the commit that holds its write is on disk.
final class SQLiteWriter: Sendable {
    private final class Job: @unchecked Sendable {
        // Set by the writer thread before `done` is signalled, read by the caller after.
        let body: (SQLiteConnection) throws(StoreError) -> Void
        var failure: StoreError?
        let done = DispatchSemaphore(value: 0)

        init(body: @escaping (SQLiteConnection) throws(StoreError) -> Void) {
            self.body = body
        }
    }

    private struct Queue {
        var jobs: [Job] = []
        var closed = false
    }

    private let queue = Mutex(Queue())
    /// The connection, held here so that the thread can let go of it when it stops:
    /// the database is closed before ``close()`` returns.
    private let connection: Mutex<SQLiteConnection?>
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(connection: SQLiteConnection) {
        self.connection = Mutex(connection)
        let thread = Thread { [self] in
            if let connection = self.connection.withLock({ $0 }) { run(connection) }
            self.connection.withLock { $0 = nil }
            finished.signal()
        }
        thread.name = "mynotes.sqlite-writer"
        thread.start()
    }

    /// Runs `body` in the next batch and waits until it is committed.
    func perform<Value: Sendable>(
        _ body: @escaping (SQLiteConnection) throws(StoreError) -> Value
    ) throws(StoreError) -> Value {
        let result = Mutex<Value?>(nil)
        let job = Job { connection throws(StoreError) in
            let value = try body(connection)
            result.withLock { $0 = value }
        }
        let accepted = queue.withLock { queue in
            guard !queue.closed else { return false }
            queue.jobs.append(job)
            return true
        }
        guard accepted else { throw .closed }
        wakeUp.signal()
        job.done.wait()
        if let failure = job.failure { throw failure }
        guard let value = result.withLock({ $0.take() }) else { throw .closed }
        return value
    }

    /// Commits what is queued, stops the thread and closes the connection.
    func close() {
        let first = queue.withLock { queue in
            defer { queue.closed = true }
            return !queue.closed
        }
        guard first else { return }
        wakeUp.signal()
        finished.wait()
    }

    private func run(_ connection: SQLiteConnection) {
        while true {
            wakeUp.wait()
            let (batch, closed) = queue.withLock { queue in
                defer { queue.jobs.removeAll(keepingCapacity: true) }
                return (queue.jobs, queue.closed)
            }
            if !batch.isEmpty { commit(batch, on: connection) }
            if closed && batch.isEmpty { return }
            if closed { continue }
        }
    }

    private func commit(_ batch: [Job], on connection: SQLiteConnection) {
        do {
            try connection.statement("BEGIN IMMEDIATE").run()
            for job in batch {
                try connection.statement("SAVEPOINT job").run()
                do {
                    try job.body(connection)
                    connection.finishStatements()
                } catch {
                    connection.finishStatements()
                    job.failure = error
                    try connection.statement("ROLLBACK TO job").run()
                }
                try connection.statement("RELEASE job").run()
            }
            try connection.statement("COMMIT").run()
            connection.finishStatements()
        } catch {
            connection.finishStatements()
            try? connection.execute("ROLLBACK")
            for job in batch where job.failure == nil { job.failure = .database(error) }
        }
        for job in batch { job.done.signal() }
    }
}
