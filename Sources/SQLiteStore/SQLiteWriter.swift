import BoundedExecution
import Dispatch
import Foundation
import Locking
import MyNotesDomain
import StorageSupport
import Synchronization

/// The one connection that writes, on a thread of its own, with group commit.
///
/// With `synchronous=FULL` every commit waits for an fsync (about 0.3 ms here),
/// which would cap writes near 3,000 a second. Writes that arrive while a commit is
/// under way are batched into the next transaction, each in a savepoint of its own
/// so one failing write does not undo the others. No caller's thread waits: a write
/// suspends its task, and the writer resumes it after the commit that holds the
/// write is on disk. In a stream of writes a small batch waits a little for more to join
/// it (``GroupCommit``). At most `queueLimit` writes wait for the next batch; one more
/// is refused at once with ``StoreError/overloaded(retryAfter:)``.
final class SQLiteWriter: Sendable {
    /// One write: its body runs on the writer thread inside its savepoint, and
    /// `finish` is called once the batch holding it has committed (or failed).
    private final class Job: @unchecked Sendable {
        // Touched only by the writer thread, from dequeue to `finish`.
        let body: (SQLiteConnection) throws(StoreError) -> SQLiteChangeWatch.Scope
        let finish: @Sendable (StoreError?) -> Void
        var failure: StoreError?
        /// What the body wrote, as it said once it succeeded.
        var touched = SQLiteChangeWatch.Scope.database
        /// When it was queued, for the write-wait metric.
        let queued = ContinuousClock.now

        init(
            body: @escaping (SQLiteConnection) throws(StoreError) -> SQLiteChangeWatch.Scope,
            finish: @escaping @Sendable (StoreError?) -> Void
        ) {
            self.body = body
            self.finish = finish
        }
    }

    private struct Queue {
        var jobs: [Job] = []
        var closed = false
    }

    let queueLimit: Int
    let retryAfter: Duration
    let groupCommit: GroupCommit
    /// How the writer gets a writable connection back after the database was read-only.
    private let recovery: SQLiteWriterRecovery?
    /// Waits, batch sizes and commit times, for /metrics.
    let statistics: StoreStatistics
    /// Told of every commit before its writes are resumed (the legacy answer cache's
    /// per-account revisions); `nil` when nothing reads the database's stamps.
    private let changes: SQLiteChangeWatch?
    /// Moves waiting notes into the search index between batches of writes, so that no
    /// durable add's commit carries index work.
    private let indexer: SQLiteSearchIndexer?
    private let queue = Lock(Queue())
    /// The connection until the writer's thread takes it: from then on only the thread
    /// holds it, so the database is closed before ``close()`` returns.
    private let connection: Lock<SQLiteConnection?>
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let held = Atomic<Int>(0)

    /// With a `recovery`, a writer whose database is read-only (SQLite opened it so, or a
    /// batch failed with SQLITE_READONLY) opens it again before a batch once `recovery`
    /// says it can be written; writes fail cleanly until then.
    init(
        connection: SQLiteConnection, queueLimit: Int, retryAfter: Duration,
        groupCommit: GroupCommit = .immediate, recovery: SQLiteWriterRecovery? = nil,
        statistics: StoreStatistics = StoreStatistics(), changes: SQLiteChangeWatch? = nil,
        indexer: SQLiteSearchIndexer? = nil
    ) {
        self.statistics = statistics
        self.changes = changes
        self.indexer = indexer
        self.connection = Lock(connection)
        self.queueLimit = max(1, queueLimit)
        self.retryAfter = retryAfter
        self.groupCommit = groupCommit
        self.recovery = recovery
        let thread = Thread.named("sqlite-writer") { [self] in
            // Woken by every write, it would otherwise preempt the loop that queued it.
            ThreadScheduling.throughput.applyToCurrentThread()
            run()
            finished.signal()
        }
        thread.start()
    }

    /// Runs `body` in the next batch; returns once that batch is committed and published
    /// as touching what `scope` says of the body's result (by default: any account).
    func perform<Value: Sendable>(
        touching scope: @escaping (Value) -> SQLiteChangeWatch.Scope = { _ in .database },
        _ body: @escaping (SQLiteConnection) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, StoreError>, Never>) in
            let value = Lock<Value?>(nil)
            let job = Job(
                body: { connection throws(StoreError) in
                    let written = try body(connection)
                    value.withLock { $0 = written }
                    return scope(written)
                },
                finish: { failure in
                    if let failure {
                        continuation.resume(returning: .failure(failure))
                    } else if let written = value.withLock({ $0.take() }) {
                        continuation.resume(returning: .success(written))
                    } else {
                        continuation.resume(returning: .failure(.closed))
                    }
                })
            if let refusal = enqueue(job) { continuation.resume(returning: .failure(refusal)) }
        }
        return try result.get()
    }

    /// Queues `job` for the next batch; the refusal when it cannot be queued.
    private func enqueue(_ job: Job) -> StoreError? {
        let refusal = queue.withLock { queue -> StoreError? in
            if queue.closed { return .closed }
            if queue.jobs.count >= queueLimit { return .overloaded(retryAfter: retryAfter) }
            queue.jobs.append(job)
            return nil
        }
        if refusal == nil { wakeUp.signal() }
        return refusal
    }

    /// Writes waiting for the next batch.
    var waitingWrites: Int { queue.withLock { $0.jobs.count } }

    /// Writes the writer holds while their batch waits for more (``GroupCommit``).
    var heldWrites: Int { held.load(ordering: .relaxed) }

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

    /// Only this function holds the connection, so it is closed once the loop ends (and
    /// can be closed before it is opened again).
    private func run() {
        var connection = self.connection.withLock { $0.take() }
        var readOnly = connection?.isReadOnly ?? false
        // `PRAGMA data_version` after the last commit; `nil`: unknown, so the next commit
        // takes it that another connection may have committed.
        var dataVersion: Int64?
        // The recent commits, for whether the next batch waits for more (`GroupCommit`).
        var pace = GroupCommit.Pace()
        while true {
            if let indexer, indexer.hasWork, !readOnly {
                // Search index: a batch of it once the store is quiet (or at
                // once when it is behind), unless a write comes first.
                let ready = indexer.isQuiet || indexer.isBehind
                let wait = ready ? 0 : SQLiteSearchIndexer.quietNanoseconds
                if wakeUp.wait(timeout: .now() + .nanoseconds(wait)) == .timedOut {
                    if indexer.isQuiet || indexer.isBehind, let connection {
                        index(with: indexer, on: connection, dataVersion: &dataVersion)
                    }
                    continue
                }
            } else {
                wakeUp.wait()
            }
            var (batch, closed) = takeQueued()
            let found = batch.count
            var waited = false
            if !closed, let first = batch.first,
                groupCommit.waits(count: found, firstQueued: first.queued, pace: pace)
            {
                waited = true
                let waiting = ContinuousClock.now
                closed = gather(into: &batch, until: first.queued + groupCommit.maxDelay)
                statistics.commitDelay.observe(.now - waiting)
            }
            if !batch.isEmpty {
                var failure: StoreError?
                if readOnly, let recovery, recovery.isWritable() {
                    // SQLite keeps one read-only view of the -shm for every connection of
                    // the process to the file until the last of them closes: this one
                    // closes first, then the readers are told to let go of theirs.
                    changes?.detach()
                    connection = nil
                    dataVersion = nil
                    changes?.lostTrack()
                    do throws(SQLiteError) {
                        let reopened = try recovery.reopen()
                        changes?.attach(to: reopened)
                        connection = reopened
                    } catch {
                        failure = .database(error)
                    }
                }
                if let connection {
                    readOnly =
                        commit(
                            batch, on: connection, dataVersion: &dataVersion, metrics: statistics)
                        || connection.isReadOnly
                } else {
                    for job in batch { job.failure = failure ?? .closed }
                }
                // Before the writes are resumed: a write they lead to is then seen to
                // follow this commit closely.
                pace.committed(
                    batch.count, endedAt: .now, waited: waited, joined: batch.count - found)
                for job in batch { job.finish(job.failure) }
                indexer?.noteActivity()
                if let indexer, indexer.isBehind, !readOnly, let connection {
                    index(with: indexer, on: connection, dataVersion: &dataVersion)
                }
            }
            if closed && batch.isEmpty {
                // The watch's mapping is safe only while this connection is open.
                changes?.detach()
                connection = nil
                return
            }
            if closed { continue }
        }
    }

    /// One batch of the search index, committed (and published, as touching no account's
    /// answers) as a write of its own.
    private func index(
        with indexer: SQLiteSearchIndexer, on connection: SQLiteConnection,
        dataVersion: inout Int64?
    ) {
        // Set by the body, on this thread; counted once the batch has committed.
        var batch = SQLiteSearchIndex.Batch(indexed: 0, isLast: false)
        let job = Job(
            body: { connection throws(StoreError) in
                do throws(SQLiteError) {
                    batch = try indexer.runBatch(on: connection)
                } catch {
                    throw .database(error)
                }
                return .accounts([])
            }, finish: { _ in })
        // No write waits for the index's batches: they stay out of the writes' metrics,
        // and their commits wait for no fsync (`synchronous=NORMAL` in WAL mode: a batch
        // lost to a power cut is redone, and the next durable commit syncs the WAL with it).
        guard (try? connection.execute("PRAGMA synchronous = NORMAL")) != nil else {
            indexer.batchFailed()
            return
        }
        _ = commit([job], on: connection, dataVersion: &dataVersion, metrics: nil)
        if job.failure == nil {
            indexer.batchCommitted(batch)
            statistics.searchIndexBatchSize.observe(batch.indexed)
        }
        if (try? connection.execute("PRAGMA synchronous = FULL")) == nil || job.failure != nil {
            indexer.batchFailed()
        }
    }

    /// The writes queued now, and whether the writer is closed.
    private func takeQueued() -> (jobs: [Job], closed: Bool) {
        queue.withLock { queue in
            defer { queue.jobs.removeAll(keepingCapacity: true) }
            return (queue.jobs, queue.closed)
        }
    }

    /// Adds the writes that come to `batch` until `deadline`, until it is full, or until
    /// none came for a while (``GroupCommit/quiet(joined:over:)``); returns whether the
    /// writer was closed meanwhile.
    private func gather(into batch: inout [Job], until deadline: ContinuousClock.Instant) -> Bool {
        defer { held.store(0, ordering: .relaxed) }
        let started = ContinuousClock.now
        let found = batch.count
        while batch.count < groupCommit.fullBatch {
            held.store(batch.count, ordering: .relaxed)
            guard let last = batch.last else { return false }
            let wait = min(
                ContinuousClock.now.duration(to: deadline),
                groupCommit.quiet(
                    joined: batch.count - found, over: started.duration(to: last.queued)))
            guard wait > .zero else { return false }
            let nanoseconds =
                wait.components.seconds * 1_000_000_000
                + wait.components.attoseconds / 1_000_000_000
            if wakeUp.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .timedOut {
                return false
            }
            let (more, closed) = takeQueued()
            batch += more
            if closed { return true }
        }
        return false
    }

    /// One transaction for the whole batch, a savepoint for each job: a job that fails
    /// is undone alone, unless its failure ended the transaction itself (SQLite does so
    /// on a full disk or an I/O error). Then the batch is lost: every job of it fails
    /// with that cause, nothing of it is stored, and the next batch starts afresh. Returns
    /// whether a write failed because the database is read-only. The caller finishes the
    /// jobs; the commit is published to ``changes`` before (see ``SQLiteChangeWatch`` for why
    /// `dataVersion` is read inside the transaction and again after it).
    private func commit(
        _ batch: [Job], on connection: SQLiteConnection, dataVersion: inout Int64?,
        metrics: StoreStatistics?
    ) -> Bool {
        // Metrics of the batch (waits, size) and of its COMMIT (the fsync), into
        // `metrics` (none for the search index's own batches).
        let started = ContinuousClock.now
        for job in batch { metrics?.writeWait.observe(started - job.queued) }
        metrics?.commitBatchSize.observe(batch.count)
        do throws(StoreError) {
            try Self.step("BEGIN IMMEDIATE", on: connection)
            let before = changes == nil ? nil : Self.dataVersion(of: connection)
            for job in batch {
                try Self.step("SAVEPOINT job", on: connection)
                do {
                    job.touched = try job.body(connection)
                    connection.finishStatements()
                } catch {
                    connection.finishStatements()
                    job.failure = error
                    guard connection.isInTransaction else { throw error }
                    try Self.step("ROLLBACK TO job", on: connection)
                }
                try Self.step("RELEASE job", on: connection)
            }
            let committing = ContinuousClock.now
            try Self.step("COMMIT", on: connection)
            metrics?.commitDuration.observe(.now - committing)
            if let changes {
                let header = changes.header()
                let after = Self.dataVersion(of: connection)
                let alone = before != nil && after == before
                changes.published(
                    batch.filter { $0.failure == nil }.map(\.touched),
                    ownHeader: alone ? header : nil, foreign: !alone || before != dataVersion)
                dataVersion = after
            }
        } catch {
            connection.finishStatements()
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            for job in batch where job.failure == nil { job.failure = error }
            dataVersion = nil
            changes?.lostTrack()
        }
        let readOnly = batch.contains { job in
            guard case .database(let cause as SQLiteError)? = job.failure else { return false }
            return cause.code == SQLiteError.readOnly
        }
        return readOnly
    }

    /// `PRAGMA data_version`: it changes when another connection commits, never for this
    /// one's own commits. `nil` when it cannot be read.
    private static func dataVersion(of connection: SQLiteConnection) -> Int64? {
        defer { connection.finishStatements() }
        guard let statement = try? connection.statement("PRAGMA data_version"),
            (try? statement.step()) == true
        else { return nil }
        return statement.int64(0)
    }

    /// Runs one statement of the batch's own (`BEGIN`, `SAVEPOINT` …).
    private static func step(_ sql: String, on connection: SQLiteConnection) throws(StoreError) {
        do throws(SQLiteError) {
            try connection.statement(sql).run()
            connection.finishStatements()
        } catch {
            throw .database(error)
        }
    }
}
