import BoundedExecution
import Locking
import MyNotesDomain
import StorageSupport

/// Group commit for adds, one account at a time, as `SQLiteWriter` does for every write.
///
/// Every add to an account updates that account's row (its usage totals, which the quota
/// is checked against), so adds to one account hold its row lock through their commit's
/// flush and run one after another, one per fsync, whatever the pool's size. Here the adds
/// to one account that wait while a batch of it commits go together into the next
/// transaction, one statement each, and share its flush. Each is still checked against
/// the quota on its own (the totals in the transaction include the adds before it) and
/// answered on its own. A statement that fails undoes the transaction; the batch's adds
/// are then run again one by one, so that only the add that fails again fails. A lost
/// connection fails the whole batch, as it fails a single write: its outcome is unknown,
/// so it is reported, never retried.
///
/// At most one batch of an account is queued or running at once, on the store's
/// executor; batches of different accounts run side by side. At most `queueLimit` adds
/// wait; one more is refused at once with ``StoreError/overloaded(retryAfter:)``.
///
/// ```swift
/// let batcher = PostgreSQLAddBatcher(pool: pool, executor: executor, queueLimit: 4_096,
///     retryAfter: .seconds(1), statistics: StoreStatistics())
/// let note = try await batcher.add(NoteDraft(date: "2026-12-01", content: "Milk"),
///     account: 1, quota: .standard)
/// ```
final class PostgreSQLAddBatcher: Sendable {
    /// One add waiting for its batch.
    private struct Pending: Sendable {
        let draft: NoteDraft
        let quota: NoteQuota
        let queued = ContinuousClock.now
        let answer: CheckedContinuation<Result<Note, StoreError>, Never>
    }

    private struct State {
        /// Adds waiting, by account. An account has an entry (perhaps empty) exactly while
        /// a batch of it is queued on the executor or running.
        var waiting: [Int64: [Pending]] = [:]
        var count = 0
    }

    /// The most adds in one transaction: a batch holds its account's row lock until it
    /// commits, and the adds at its end wait for all those before them.
    static let largestBatch = 256

    private let pool: PostgreSQLConnectionPool
    private let executor: BoundedExecutor
    private let queueLimit: Int
    private let retryAfter: Duration
    private let statistics: StoreStatistics
    private let state = Lock(State())

    init(
        pool: PostgreSQLConnectionPool, executor: BoundedExecutor, queueLimit: Int,
        retryAfter: Duration, statistics: StoreStatistics
    ) {
        self.pool = pool
        self.executor = executor
        self.queueLimit = max(1, queueLimit)
        self.retryAfter = retryAfter
        self.statistics = statistics
    }

    /// Adds the note in the next batch of its account; returns once that batch committed.
    func add(
        _ draft: NoteDraft, account: Int64, quota: NoteQuota
    ) async throws(StoreError) -> Note {
        let result = await withCheckedContinuation {
            (answer: CheckedContinuation<Result<Note, StoreError>, Never>) in
            let pending = Pending(draft: draft, quota: quota, answer: answer)
            let first = state.withLock { state -> Bool? in
                guard state.count < queueLimit else { return nil }
                state.count += 1
                let first = state.waiting[account] == nil
                state.waiting[account, default: []].append(pending)
                return first
            }
            switch first {
            case nil: answer.resume(returning: .failure(.overloaded(retryAfter: retryAfter)))
            case true?: schedule(account)
            case false?: break
            }
        }
        return try result.get()
    }

    /// Queues the account's next batch on the executor; when it cannot be queued, every
    /// add waiting for it is refused.
    private func schedule(_ account: Int64) {
        guard let refusal = executor.submit({ self.commitNextBatch(of: account) }) else { return }
        let refused = state.withLock { state in
            let refused = state.waiting.removeValue(forKey: account) ?? []
            state.count -= refused.count
            return refused
        }
        let failure = StoreError(refusal, retryAfter: retryAfter)
        for pending in refused { pending.answer.resume(returning: .failure(failure)) }
    }

    /// On an executor thread: commits the adds waiting for the account (up to
    /// ``largestBatch``), queues the next batch if more came meanwhile, then answers.
    private func commitNextBatch(of account: Int64) {
        let batch = state.withLock { state in
            let waiting = state.waiting[account] ?? []
            let batch = Array(waiting.prefix(Self.largestBatch))
            state.waiting[account] = Array(waiting.dropFirst(batch.count))
            state.count -= batch.count
            return batch
        }
        let started = ContinuousClock.now
        for pending in batch { statistics.writeWait.observe(started - pending.queued) }
        statistics.commitBatchSize.observe(batch.count)
        let outcomes = commit(batch, account: account)
        let more = state.withLock { state in
            guard state.waiting[account]?.isEmpty == false else {
                state.waiting[account] = nil
                return false
            }
            return true
        }
        // The next batch may start on another thread while this one answers: an answer
        // goes on running here (the executor lets resumed tasks continue on its threads).
        if more { schedule(account) }
        for (pending, outcome) in zip(batch, outcomes) { pending.answer.resume(returning: outcome) }
    }

    private func commit(_ batch: [Pending], account: Int64) -> [Result<Note, StoreError>] {
        do throws(PostgreSQLPoolError) {
            return try pool.withConnection(retry: .never) { connection throws(PostgreSQLError) in
                try commit(batch, account: account, on: connection)
            }
        } catch {
            let failure = StoreError(error, retryAfter: retryAfter)
            return batch.map { _ in .failure(failure) }
        }
    }

    /// One transaction for the batch (a lone add is a transaction by itself), sent in one
    /// pipeline: one round trip for the batch, not one per add. A statement that fails
    /// sends the adds through again one at a time. Throws what fails them all.
    private func commit(
        _ batch: [Pending], account: Int64, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> [Result<Note, StoreError>] {
        if batch.count == 1 {
            let pending = batch[0]
            let rows = try connection.query(
                Self.insertWithinQuota, parameters: Self.parameters(of: pending, account: account))
            return [Self.outcome(of: pending, account: account, rows)]
        }
        let statements =
            [PostgreSQLConnection.Statement(sql: "BEGIN", parameters: [])]
            + batch.map { pending in
                PostgreSQLConnection.Statement(
                    sql: Self.insertWithinQuota,
                    parameters: Self.parameters(of: pending, account: account))
            } + [PostgreSQLConnection.Statement(sql: "COMMIT", parameters: [])]
        let committing = ContinuousClock.now
        let results: [PostgreSQLRows]
        do throws(PostgreSQLError) {
            results = try connection.pipeline(statements)
        } catch {
            // A lost connection, or one left in a state of no use, fails them all.
            guard !error.isConnectionLost, connection.isReusable || connection.isInTransaction
            else { throw error }
            if connection.isInTransaction { try connection.execute("ROLLBACK") }
            return batch.map { pending in
                do throws(PostgreSQLError) {
                    let rows = try connection.query(
                        Self.insertWithinQuota,
                        parameters: Self.parameters(of: pending, account: account))
                    return Self.outcome(of: pending, account: account, rows)
                } catch {
                    return .failure(.database(error))
                }
            }
        }
        statistics.commitDuration.observe(.now - committing)
        return zip(batch, results.dropFirst()).map { pending, rows in
            Self.outcome(of: pending, account: account, rows)
        }
    }

    private static func parameters(of pending: Pending, account: Int64) -> [PostgreSQLValue] {
        let draft = pending.draft
        let quota = pending.quota
        return [
            .integer(account), .text(draft.date.description), .text(draft.date.sortKey),
            .text(draft.content),
            .text(TextFolding.fold(draft.content)),
            quota.notes.map { .integer(Int64($0)) } ?? .null,
            quota.bytes.map { .integer(Int64($0)) } ?? .null,
            .integer(Int64(draft.content.utf8.count)),
        ]
    }

    /// The note as stored, or why it was not: the quota (which limit, from the totals it
    /// was checked against), or no such account.
    private static func outcome(
        of pending: Pending, account: Int64, _ rows: PostgreSQLRows
    ) -> Result<Note, StoreError> {
        guard rows.count > 0 else {
            return .failure(
                .database(
                    PostgreSQLError(
                        sqlState: "23503", message: "no account \(account) for the note",
                        sql: nil)))
        }
        let draft = pending.draft
        if !rows.isNull(0, 0) {
            return .success(
                Note(
                    id: rows.int64(0, 0), date: draft.date, content: draft.content,
                    createdAt: rows.int64(0, 1), updatedAt: rows.int64(0, 2),
                    version: rows.int64(0, 3)))
        }
        let quota = pending.quota
        let limit =
            quota.exceeded(
                addingNoteOf: draft.content.utf8.count, toNotes: Int(rows.int64(0, 4)),
                ofBytes: Int(rows.int64(0, 5))) ?? quota.notes.map(NoteQuota.Limit.notes)
            ?? .bytes(quota.bytes ?? 0)
        return .failure(.quotaExceeded(limit))
    }

    /// One add, one statement: the row lock on the account orders the adds of one account
    /// across servers, and a locked row is read as its last commit (or this transaction)
    /// left it, so the totals (the trigger's, migration account-usage-totals) are current
    /// when checked. Returns the new note's ID, times and version (`NULL` when the quota
    /// refused it), then the totals it was checked against: a small row whatever the
    /// content, as a pipeline needs.
    private static let insertWithinQuota = """
        WITH usage AS (
            SELECT note_count, note_bytes FROM accounts WHERE id = $1 FOR UPDATE),
        added AS (
            INSERT INTO notes (account_id, date, sort_key, content, folded_content,
                created_at, updated_at)
            SELECT $1, $2, $3, $4, $5, \(PostgreSQLNoteStore.now), \(PostgreSQLNoteStore.now)
            FROM usage
            WHERE ($6::bigint IS NULL OR note_count < $6::bigint)
                AND ($7::bigint IS NULL OR note_bytes + $8::bigint <= $7::bigint)
            RETURNING id, created_at, updated_at, version)
        SELECT added.id, added.created_at, added.updated_at, added.version,
            usage.note_count, usage.note_bytes
        FROM usage LEFT JOIN added ON true
        """
}
