import BoundedExecution
import Locking
import MyNotesDomain

/// Reads that wait together go to PostgreSQL together: one thread sends the statements of
/// the waiting reads in one pipeline, one round trip for all of them, where each read would
/// otherwise cost its own send, wait and wake-up on both sides. What the hottest reads go
/// through: every request's token check and the legacy query's first page
/// (``PostgreSQLNoteStore/checkedNotes(email:presenting:admitting:page:)``).
///
/// At most `concurrency` batches run at once, on the store's executor; a read that finds
/// them all busy waits for the next one, so batches grow with the load and stay single
/// reads when it is light. Each read's rows are turned into its answer on the store's
/// thread (which may run more statements on the same connection), then the readers are
/// resumed once the connection is given back. A batch that loses its connection runs once
/// more on a new one, as a single read does; a statement that fails ends the pipeline, and
/// the batch's reads then run one by one, so that only the read that fails again fails.
///
/// ```swift
/// let count = try await batcher.read("SELECT count(*) FROM notes WHERE account_id = $1",
///     [.integer(1)]) { rows, _ throws(PostgreSQLError) in rows.int64(0, 0) }
/// ```
final class PostgreSQLReadBatcher: Sendable {
    /// One read: its statement, what makes its answer of the rows, and how it is resumed.
    private final class Job: @unchecked Sendable {
        // Touched only by the store's thread that runs the batch holding it.
        let statement: PostgreSQLConnection.Statement
        /// Makes the answer of the statement's result and keeps it.
        let complete: (Result<PostgreSQLRows, PostgreSQLError>, PostgreSQLConnection) -> Void
        /// Keeps a failure as the answer, for a read whose statement never ran.
        let fail: (StoreError) -> Void
        /// Resumes the reader with the answer kept.
        let answer: () -> Void

        init(
            statement: PostgreSQLConnection.Statement,
            complete:
                @escaping (Result<PostgreSQLRows, PostgreSQLError>, PostgreSQLConnection)
                -> Void,
            fail: @escaping (StoreError) -> Void, answer: @escaping () -> Void
        ) {
            self.statement = statement
            self.complete = complete
            self.fail = fail
            self.answer = answer
        }
    }

    private struct State {
        var waiting: [Job] = []
        var running = 0
    }

    /// The most reads in one pipeline.
    static let largestBatch = 64

    private let pool: PostgreSQLConnectionPool
    private let executor: BoundedExecutor
    private let concurrency: Int
    private let queueLimit: Int
    private let retryAfter: Duration
    private let state = Lock(State())

    init(
        pool: PostgreSQLConnectionPool, executor: BoundedExecutor, concurrency: Int,
        queueLimit: Int, retryAfter: Duration
    ) {
        self.pool = pool
        self.executor = executor
        self.concurrency = max(1, concurrency)
        self.queueLimit = max(1, queueLimit)
        self.retryAfter = retryAfter
    }

    /// Runs `sql` in the next batch and returns what `then` makes of its rows. `then` runs
    /// on the store's thread with the connection, for statements of its own.
    func read<Value: Sendable>(
        _ sql: String, _ parameters: [PostgreSQLValue],
        then:
            @escaping @Sendable (PostgreSQLRows, PostgreSQLConnection) throws(PostgreSQLError)
            -> Value
    ) async throws(StoreError) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, StoreError>, Never>) in
            let outcome = Lock<Result<Value, StoreError>>(.failure(.closed))
            let job = Job(
                statement: PostgreSQLConnection.Statement(sql: sql, parameters: parameters),
                complete: { result, connection in
                    let value = Result { () throws(StoreError) -> Value in
                        do throws(PostgreSQLError) {
                            return try then(try result.get(), connection)
                        } catch {
                            throw StoreError(error)
                        }
                    }
                    outcome.withLock { $0 = value }
                },
                fail: { error in outcome.withLock { $0 = .failure(error) } },
                answer: { continuation.resume(returning: outcome.withLock { $0 }) })
            enqueue(job)
        }
        return try result.get()
    }

    private func enqueue(_ job: Job) {
        let start = state.withLock { state -> Bool? in
            guard state.waiting.count < queueLimit else { return nil }
            state.waiting.append(job)
            guard state.running < concurrency else { return false }
            state.running += 1
            return true
        }
        switch start {
        case nil:
            job.fail(.overloaded(retryAfter: retryAfter))
            job.answer()
        case true?: schedule()
        case false?: break
        }
    }

    /// Queues a batch on the executor; when it cannot be queued, the reads waiting are
    /// refused.
    private func schedule() {
        guard let refusal = executor.submit({ self.runBatch() }) else { return }
        let refused = state.withLock { state in
            state.running -= 1
            // Another batch still running takes what waits; with none, nothing would.
            guard state.running == 0 else { return [Job]() }
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        let failure = StoreError(refusal, retryAfter: retryAfter)
        for job in refused {
            job.fail(failure)
            job.answer()
        }
    }

    /// On a store thread: runs the reads waiting (up to ``largestBatch``), queues the
    /// next batch if more wait, then resumes the readers.
    private func runBatch() {
        let batch = state.withLock { state in
            let batch = Array(state.waiting.prefix(Self.largestBatch))
            state.waiting.removeFirst(batch.count)
            return batch
        }
        if !batch.isEmpty { run(batch) }
        let more = state.withLock { state in
            if state.waiting.isEmpty {
                state.running -= 1
                return false
            }
            return true
        }
        if more { schedule() }
        // Readers go on running here (the executor lets resumed tasks continue on its
        // threads), one after the other, while the next batch runs on another thread.
        for job in batch { job.answer() }
    }

    private func run(_ batch: [Job]) {
        do throws(PostgreSQLPoolError) {
            try pool.withConnection(retry: .once) { connection throws(PostgreSQLError) in
                let results: [Result<PostgreSQLRows, PostgreSQLError>]
                if batch.count == 1 {
                    // Thrown when the connection is lost, so that the pool tries again.
                    let statement = batch[0].statement
                    results = [
                        .success(
                            try connection.query(statement.sql, parameters: statement.parameters))
                    ]
                } else {
                    do throws(PostgreSQLError) {
                        results = try connection.pipeline(batch.map(\.statement)).map {
                            .success($0)
                        }
                    } catch {
                        guard !error.isConnectionLost, connection.isReusable else { throw error }
                        results = batch.map { job in
                            Result { () throws(PostgreSQLError) in
                                try connection.query(
                                    job.statement.sql, parameters: job.statement.parameters)
                            }
                        }
                    }
                }
                // Nothing below throws: each read keeps its own outcome, and none runs twice.
                for (job, result) in zip(batch, results) { job.complete(result, connection) }
            }
        } catch {
            let failure = StoreError(error, retryAfter: retryAfter)
            for job in batch { job.fail(failure) }
        }
    }
}
