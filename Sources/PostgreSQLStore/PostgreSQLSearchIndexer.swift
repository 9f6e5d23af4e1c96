import BoundedExecution
import Foundation
import Locking
import MyNotesDomain
import StorageSupport
import Telemetry

/// Brings the search chunks (migration `search-chunks`) up to date with the notes, in
/// batches of its own rather than in the commits of the writes (a durable add that
/// kept both GIN indexes of notes ran at half the rate of one without them), on a thread
/// and a connection of its own.
///
/// Each account's progress (`search_chunks_progress.indexed_seq`) is a position in its
/// change feed: the chunks hold every note as of that change, and a search reads the notes
/// changed after it one by one (PostgreSQLNoteStore+Search), so a note is found the moment
/// its write is acknowledged. Changes after the progress cost only searches, so the indexer
/// waits, as SQLite's does (`SQLiteSearchIndexer`), until the account has been quiet for
/// ``quietNanoseconds``, or until it is *behind*: ``priorityLag`` changes wait, or
/// ``searchedLag`` and a search went through the index meanwhile. A stream of adds nobody
/// searches meanwhile thus pays no index work until it pauses.
///
/// It hears of writes from every server through the store's change listener (`LISTEN`).
/// Servers sharing the database share the work: a batch claims the account's progress row
/// (`FOR UPDATE SKIP LOCKED`), so two indexers never index the same changes. A batch
/// commits without waiting for its flush (`synchronous_commit` off): what a crash loses
/// of it, progress included, the next batch does again.
///
/// ```swift
/// let indexer = PostgreSQLSearchIndexer(conninfo: conninfo)
/// store.changeObservers.add(indexer.changed)
/// indexer.start()
/// ```
final class PostgreSQLSearchIndexer: Sendable {
    /// Changes per batch: tens of milliseconds of the database's work.
    static let batchChanges = 1_000
    /// How long an account has to be without writes before a batch runs: ten times
    /// SQLite's. Writes reach the indexer as notifications after their batches' commits,
    /// and on a loaded machine (fsync, autovacuum) those came more than 20 ms apart amid a
    /// stream of adds: the indexer then ran batches during the stream, and the adds fell to
    /// 0.60 times the rate without indexes (0.96 times at 200 ms; search-postgresql-adds.sh,
    /// 2026-12-04).
    static let quietNanoseconds = 200_000_000
    /// How often, at most, the indexer reads how far an account busy with writes lags.
    static let lagCheckNanoseconds = 250_000_000
    /// Changes waiting past which the account is behind, searched or not.
    static let priorityLag = Int64(SearchIndexLag.priority)
    /// Changes waiting past which a search puts the account behind.
    static let searchedLag = Int64(SearchIndexLag.searched)
    /// How long the indexer waits after a batch failed (the database is down).
    static let retryNanoseconds = 1_000_000_000
    /// Changes waiting, and rows of `notes` changed since its last ANALYZE, past which a
    /// catch-up first analyzes the account columns (``analyzeAccounts``).
    static let analyzeLag: Int64 = 10_000
    /// How often, at most, the indexer analyzes them.
    static let analyzeIntervalNanoseconds = 60_000_000_000

    /// An account with changes that may wait.
    private struct Waiting {
        var lastWrite: Int
        var lastLagCheck: Int
        /// A search went through the index since the account last caught up.
        var searched = false
    }

    private struct State {
        var waiting: [Int64: Waiting] = [:]
        /// Notifications were lost (the listener reconnected, or the indexer started):
        /// every account may have changes waiting.
        var everyAccount = true
        var started = false
        var stopped = false
        /// The thread sleeps until woken, with nothing to wait for.
        var sleeping = false
        /// Tasks waiting in ``untilIdle()``.
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        /// Shut for ``analyzeIntervalNanoseconds`` after the indexer ran ``analyzeAccounts``.
        var analysis = IntervalGate(
            nanoseconds: PostgreSQLSearchIndexer.analyzeIntervalNanoseconds)
    }

    /// What one batch did.
    enum Batch: Equatable {
        /// Indexed `changes` more, up to the account's change; `remaining` changes are newer.
        case indexed(changes: Int64, remaining: Int64)
        /// Another server's indexer holds the account.
        case claimed
        /// The account is gone.
        case gone
    }

    /// What a batch does with the entries it leaves pending in the chunks' GIN indexes.
    ///
    /// PostgreSQL keeps a GIN index's newest entries in a pending list (`fastupdate`), up
    /// to 4 MB, and every lookup reads that list whole; a search by month looks up as many
    /// months as it needs to fill its page. 50 pages pending took a rare word's first page
    /// over 20,000 notes from 4 ms to 20 ms (its statement read them in each of 63 months:
    /// 13.6 ms, and 1.7 ms once they were merged). Merged after each batch, the list costs
    /// the indexer nothing more: a batch is the bulk that a merge wants (27,000 chunks in
    /// batches of 500: 44.4 s, against 44.6 s left pending), where a limit of 64 kB made
    /// them cost 1.48 times as much and `fastupdate` off 2.1 times.
    enum PendingEntries: Equatable {
        /// Merged into the indexes' trees before the batch commits.
        case merged
        /// Left to PostgreSQL, which merges them past its `gin_pending_list_limit` or in
        /// a vacuum: the database user does not own the indexes, as merging requires.
        case left
    }

    private let conninfo: String
    private let statistics: StoreStatistics
    private let state = Lock(State())
    private let wakeup = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(conninfo: String, statistics: StoreStatistics = StoreStatistics()) {
        self.conninfo = conninfo
        self.statistics = statistics
    }

    /// Accounts with changes heard of and not yet in the chunks (after lost
    /// notifications, only those found since).
    var waitingAccounts: Int { state.withLock { $0.waiting.count } }

    /// Starts the thread, once; later calls do nothing.
    func start() {
        let starting = state.withLock { state in
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard starting else { return }
        let thread = Thread.named("pg-indexer") { [self] in
            run()
            finished.signal()
        }
        thread.start()
    }

    /// Stops the thread after its batch and closes its connection; returns once it has.
    func stop() {
        let running = state.withLock { state in
            defer { state.stopped = true }
            return state.started && !state.stopped
        }
        guard running else { return }
        wakeup.signal()
        finished.wait()
        let waiters = state.withLock { state in
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// A change observer (``ChangeObservers``): an account's notes changed, or any may have.
    func changed(_ signal: ChangeSignal) {
        let now = MonotonicTime.nanoseconds
        let wake = state.withLock { state in
            switch signal {
            case .account(let account):
                state.waiting[account, default: Waiting(lastWrite: now, lastLagCheck: now)]
                    .lastWrite = now
            case .anyAccount:
                state.everyAccount = true
            }
            let sleeping = state.sleeping
            state.sleeping = false
            return sleeping
        }
        if wake { wakeup.signal() }
    }

    /// A search of the account went through the index: past ``searchedLag`` waiting
    /// changes, the account is behind.
    func searched(account: Int64) {
        let wake = state.withLock { state in
            guard var waiting = state.waiting[account], !waiting.searched else { return false }
            waiting.searched = true
            waiting.lastLagCheck = 0
            state.waiting[account] = waiting
            return true
        }
        if wake { wakeup.signal() }
    }

    /// Returns once no account waits: every change the indexer heard of before the call
    /// is in the chunks (or the indexer stopped).
    func untilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state in
                guard !(state.sleeping || state.stopped) else { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        var connection: PostgreSQLConnection?
        var pending = PendingEntries.left
        while !isStopped {
            do throws(PostgreSQLError) {
                if connection == nil || connection?.isBroken == true {
                    connection = nil
                    let opened = try PostgreSQLConnection(conninfo: conninfo)
                    try opened.execute("SET synchronous_commit = off")
                    pending = try Self.pendingEntries(on: opened)
                    connection = opened
                }
                guard let connection else { continue }
                try findEveryAccount(on: connection)
                let (due, deadline) = try dueAccounts(on: connection)
                for account in due where !isStopped {
                    try catchUp(account, pending: pending, on: connection)
                }
                if due.isEmpty { sleep(until: deadline) }
            } catch {
                connection = nil
                sleep(until: MonotonicTime.nanoseconds + Self.retryNanoseconds)
            }
        }
    }

    /// Sleeps until `deadline` (`nil`: until woken) or a notification.
    private func sleep(until deadline: Int?) {
        guard let deadline else {
            let (sleeping, idle) = state.withLock { state in
                // A notification taken meanwhile is still to be read.
                guard !state.everyAccount, state.waiting.isEmpty, !state.stopped else {
                    return (false, [CheckedContinuation<Void, Never>]())
                }
                state.sleeping = true
                defer { state.idleWaiters = [] }
                return (true, state.idleWaiters)
            }
            for waiter in idle { waiter.resume() }
            if sleeping { wakeup.wait() }
            return
        }
        let wait = max(0, deadline - MonotonicTime.nanoseconds)
        _ = wakeup.wait(timeout: .now() + .nanoseconds(wait))
    }

    /// After lost notifications: every account whose changes the chunks lack waits, due
    /// at once.
    private func findEveryAccount(on connection: PostgreSQLConnection) throws(PostgreSQLError) {
        guard state.withLock({ $0.everyAccount }) else { return }
        state.withLock { $0.everyAccount = false }
        let rows = try connection.query(
            """
            SELECT a.id FROM accounts a LEFT JOIN search_chunks_progress p ON p.account_id = a.id
            WHERE a.change_seq > coalesce(p.indexed_seq, 0)
            """)
        state.withLock { state in
            for row in 0..<rows.count {
                state.waiting[rows.int64(row, 0), default: Waiting(lastWrite: 0, lastLagCheck: 0)]
                    .lastWrite = 0
            }
        }
    }

    /// The accounts due for a batch now (quiet, or behind), and when the next one may be.
    private func dueAccounts(on connection: PostgreSQLConnection) throws(PostgreSQLError) -> (
        [Int64], Int?
    ) {
        let now = MonotonicTime.nanoseconds
        let waiting = state.withLock { $0.waiting }
        var due: [Int64] = []
        var deadline: Int?
        for (account, entry) in waiting {
            if now - entry.lastWrite >= Self.quietNanoseconds {
                due.append(account)
                continue
            }
            if now - entry.lastLagCheck >= Self.lagCheckNanoseconds {
                state.withLock { $0.waiting[account]?.lastLagCheck = now }
                if try isBehind(account, searched: entry.searched, on: connection) {
                    due.append(account)
                    continue
                }
            }
            let next = min(
                entry.lastWrite + Self.quietNanoseconds,
                max(entry.lastLagCheck, now) + Self.lagCheckNanoseconds)
            deadline = min(deadline ?? next, next)
        }
        return (due, deadline)
    }

    private func isBehind(_ account: Int64, searched: Bool, on connection: PostgreSQLConnection)
        throws(PostgreSQLError) -> Bool
    {
        let rows = try connection.query(
            """
            SELECT a.change_seq - coalesce(p.indexed_seq, 0) FROM accounts a
            LEFT JOIN search_chunks_progress p ON p.account_id = a.id WHERE a.id = $1
            """, .integer(account))
        guard rows.count > 0 else { return true }  // gone: a batch forgets it
        return Self.isBehind(lag: rows.int64(0, 0), searched: searched)
    }

    /// Runs ``analyzeAccounts`` before a catch-up of ``analyzeLag`` changes or more once
    /// `notes` changed as much since its last ANALYZE (``staleStatistics``), at most every
    /// ``analyzeIntervalNanoseconds``.
    private func analyzeIfStale(_ account: Int64, on connection: PostgreSQLConnection)
        throws(PostgreSQLError)
    {
        let now = MonotonicTime.nanoseconds
        guard state.withLock({ $0.analysis.isOpen(at: now) }) else { return }
        let stale = try connection.query(
            Self.staleStatistics, .integer(account), .integer(Self.analyzeLag))
        guard stale.count > 0, stale.text(0, 0) == "t" else { return }
        state.withLock { $0.analysis.pass(at: now) }
        _ = try connection.query(Self.analyzeAccounts)
    }

    /// Whether the account (`$1`) has `$2` changes waiting and `notes` has had as many
    /// rows changed since its last ANALYZE.
    static let staleStatistics = """
        SELECT a.change_seq - coalesce(p.indexed_seq, 0) >= $2
            AND pg_stat_get_mod_since_analyze('notes'::regclass) >= $2
        FROM accounts a LEFT JOIN search_chunks_progress p ON p.account_id = a.id
        WHERE a.id = $1
        """

    /// The planner's statistics of the account columns the batches look up by. An account
    /// created after the tables' last ANALYZE has no rows there, and where a few accounts
    /// hold every sampled row the planner reckons one row for it: it then looked each
    /// changed note up in `notes_by_account_newest` by its account alone (the ID is the
    /// index's third column), reading all the account's entries for every change, which
    /// is quadratic in the account's size. An autovacuum analyzes `notes` only after 10%
    /// of its rows change. 31,000 adds to a new account beside a million notes took the
    /// indexer 153 s to catch up, and 3.9 s once this statement had run (0.8 s; the
    /// columns alone, so that the chunks' expression indexes are not analyzed).
    static let analyzeAccounts =
        "ANALYZE notes (account_id), note_changes (account_id), search_chunks (account_id)"

    /// Whether `lag` waiting changes put the account behind, `searched` or not.
    private static func isBehind(lag: Int64, searched: Bool) -> Bool {
        lag >= priorityLag || (searched && lag >= searchedLag)
    }

    /// Batches for the account until it is caught up, or, unless it is behind, until a
    /// write comes meanwhile.
    private func catchUp(
        _ account: Int64, pending: PendingEntries, on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) {
        try analyzeIfStale(account, on: connection)
        let began = MonotonicTime.nanoseconds
        while !isStopped {
            switch try Self.index(
                account: account, batch: Self.batchChanges, pending: pending, on: connection)
            {
            case .claimed:
                // Another server indexes it: look again once it could be done.
                state.withLock { $0.waiting[account]?.lastWrite = MonotonicTime.nanoseconds }
                return
            case .gone:
                state.withLock { _ = $0.waiting.removeValue(forKey: account) }
                return
            case .indexed(let changes, let remaining):
                statistics.searchIndexBatchSize.observe(Int(changes))
                let written = state.withLock { state -> Bool in
                    guard let waiting = state.waiting[account] else { return false }
                    if remaining <= 0, waiting.lastWrite < began {
                        state.waiting.removeValue(forKey: account)
                    }
                    return waiting.lastWrite >= began
                }
                if remaining <= 0 { return }
                let searched = state.withLock { $0.waiting[account]?.searched ?? false }
                if written && !Self.isBehind(lag: remaining, searched: searched) { return }
            }
        }
    }

    /// One batch: the account's next ``batchChanges`` changes after its progress, into the
    /// chunks, and the progress moved past them, in one transaction.
    static func index(
        account: Int64, batch: Int, pending: PendingEntries = .merged,
        on connection: PostgreSQLConnection
    ) throws(PostgreSQLError) -> Batch {
        try connection.transaction { () throws(PostgreSQLError) -> Batch in
            _ = try connection.query(
                """
                INSERT INTO search_chunks_progress (account_id, indexed_seq)
                SELECT id, 0 FROM accounts WHERE id = $1 ON CONFLICT DO NOTHING
                """, .integer(account))
            let progress = try connection.query(
                "SELECT indexed_seq FROM search_chunks_progress WHERE account_id = $1"
                    + " FOR UPDATE SKIP LOCKED", .integer(account))
            guard progress.count > 0 else {
                let exists = try connection.query(
                    "SELECT 1 FROM accounts WHERE id = $1", .integer(account))
                return exists.count > 0 ? .claimed : .gone
            }
            let moved = try connection.query(
                indexBatch, .integer(account), .integer(progress.int64(0, 0)),
                .integer(Int64(batch)))
            guard moved.count > 0 else { return .gone }
            let indexed = moved.int64(0, 0)
            if pending == .merged && indexed > progress.int64(0, 0) {
                _ = try connection.query(mergePendingEntries)
            }
            return .indexed(
                changes: indexed - progress.int64(0, 0), remaining: moved.int64(0, 1) - indexed)
        }
    }

    /// Whether the connection's user may merge the pending entries: it owns the indexes
    /// (the server's own migrations made them) or is a member of their owner's role. An
    /// index that is not there (an operator dropped it to build it again) has nothing to
    /// merge: naming it with `::regclass` failed, and the indexer then wrote no chunk at
    /// all, retrying every second, until the index was back.
    static func pendingEntries(on connection: PostgreSQLConnection) throws(PostgreSQLError)
        -> PendingEntries
    {
        let rows = try connection.query(
            """
            SELECT count(*) FILTER (WHERE NOT pg_has_role(relowner, 'USAGE')) FROM pg_class
            WHERE oid IN (\(indexes.map(existing).joined(separator: ", ")))
            """)
        return rows.int64(0, 0) == 0 ? .merged : .left
    }

    /// The index named `name`, or NULL when there is none.
    private static func existing(_ name: String) -> String { "to_regclass('\(name)')" }

    /// The indexes whose pending entries a batch merges: the piece indexes.
    static let indexes = PostgreSQLSearchLookup.Index.allCases.map(\.name)

    /// What the server logs as it starts when its user does not own the indexes
    /// (``PendingEntries/left``): nothing fails, so nothing else would tell.
    static let notOwnerWarning =
        "the database user does not own the search indexes ("
        + indexes.joined(separator: ", ")
        + "), so the search indexer cannot merge their pending entries: "
        + "searches slow down as writes fill the pending lists, until a vacuum merges them. "
        + "Run the server as the indexes' owner, or as a member of its role (docs/SCALING.md)"

    /// The pages of each index's pending list merged into its tree (``PendingEntries``),
    /// NULL for an index that is not there.
    static let mergePendingEntries =
        "SELECT "
        + indexes.map { "gin_clean_pending_list(\(existing($0)))" }.joined(separator: ", ")

    /// In one statement, so in one snapshot: the batch's bound (its last change, or the
    /// account's newest), the chunks of the notes changed up to it written (a chunk already
    /// at the note's version is left alone) or removed (a note gone, or chunks past a
    /// shortened note's last), and the progress moved to it. Changes of an account commit
    /// in the order of their sequence (its row lock), so every change up to the account's
    /// newest is visible. The chunks written and those removed are never the same rows.
    ///
    /// A removal asks each chunk's own note whether it still has that chunk, rather than
    /// anti-joining the chunks written: the planner reckons a thousand chunks a note (a
    /// `generate_series` with bounds it cannot know), and for a batch of a thousand notes
    /// it built a hash sized for 27.8 million rows, in batches on disk: 0.86 s of the
    /// batch's 1.0 s, and ten such batches made a 10,000-change catch-up in a test take
    /// 8.6 s (over a minute on CI's loaded machine).
    static let indexBatch = """
        WITH bound AS (
            SELECT coalesce(
                (SELECT seq FROM note_changes WHERE account_id = $1 AND seq > $2
                    ORDER BY seq OFFSET $3 - 1 LIMIT 1),
                (SELECT change_seq FROM accounts WHERE id = $1)) AS seq),
        changed AS (
            SELECT c.note_id, c.deleted FROM note_changes c, bound
            WHERE c.account_id = $1 AND c.seq > $2 AND c.seq <= bound.seq),
        chunked AS (
            SELECT n.id, n.sort_key, n.version, t.chunk, t.text
            FROM changed c JOIN notes n ON n.account_id = $1 AND n.id = c.note_id
            CROSS JOIN LATERAL mynotes_text_chunks(n.folded_content) t
            WHERE NOT c.deleted),
        removed AS (
            DELETE FROM search_chunks s USING changed c
                LEFT JOIN notes n ON n.account_id = $1 AND n.id = c.note_id AND NOT c.deleted
            WHERE s.account_id = $1 AND s.note_id = c.note_id
                AND (n.id IS NULL OR NOT EXISTS (
                    SELECT 1 FROM mynotes_text_chunks(n.folded_content) t
                    WHERE t.chunk = s.chunk))),
        written AS (
            INSERT INTO search_chunks (account_id, note_id, chunk, sort_key, version, folded_content)
            SELECT $1, id, chunk, sort_key, version, text FROM chunked
            ON CONFLICT (account_id, note_id, chunk) DO UPDATE SET sort_key = EXCLUDED.sort_key,
                version = EXCLUDED.version, folded_content = EXCLUDED.folded_content
            WHERE search_chunks.version <> EXCLUDED.version)
        UPDATE search_chunks_progress p SET indexed_seq = greatest(p.indexed_seq, bound.seq)
        FROM bound WHERE p.account_id = $1
        RETURNING p.indexed_seq, (SELECT change_seq FROM accounts WHERE id = $1)
        """
}
