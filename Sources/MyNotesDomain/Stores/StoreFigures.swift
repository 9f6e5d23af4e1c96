import Telemetry

/// A store's figures at one moment: its queues, its group commits and its search index.
/// Each store fills what it has; what a store does not have is `nil`.
public struct StoreFigures: Sendable, Equatable {
    /// Which engine, since the same figure means a different thing on each (a write on
    /// SQLite waits for the one writer; on PostgreSQL, an add waits for its batch).
    public enum Engine: Sendable, Equatable {
        case sqlite
        case postgreSQL
    }

    public var engine: Engine
    /// Reads waiting for a reader connection (SQLite).
    public var waitingReads: Int?
    /// Writes waiting for the next commit (SQLite), or jobs waiting for a pooled
    /// connection (PostgreSQL).
    public var waitingWrites: Int
    /// Connections open and the pool's capacity (PostgreSQL).
    public var pool: (open: Int, capacity: Int)?
    /// How long reads waited before they ran (SQLite).
    public var readWait: HistogramSnapshot?
    /// How long writes waited before they ran.
    public var writeWait: HistogramSnapshot
    /// Writes committed together in one transaction.
    public var commitBatchSize: HistogramSnapshot
    /// How long a batch's COMMIT took.
    public var commitDuration: HistogramSnapshot
    /// How long a small batch waited for more writes to join it (SQLite).
    public var commitDelay: HistogramSnapshot?
    /// What the search index has yet to take in: notes on SQLite, accounts on PostgreSQL.
    public var searchIndexWaiting: Int
    /// The search index's batches, by how much each took in.
    public var searchIndexBatchSize: HistogramSnapshot

    public init(
        engine: Engine, waitingReads: Int? = nil, waitingWrites: Int,
        pool: (open: Int, capacity: Int)? = nil, readWait: HistogramSnapshot? = nil,
        writeWait: HistogramSnapshot, commitBatchSize: HistogramSnapshot,
        commitDuration: HistogramSnapshot, commitDelay: HistogramSnapshot? = nil,
        searchIndexWaiting: Int, searchIndexBatchSize: HistogramSnapshot
    ) {
        self.engine = engine
        self.waitingReads = waitingReads
        self.waitingWrites = waitingWrites
        self.pool = pool
        self.readWait = readWait
        self.writeWait = writeWait
        self.commitBatchSize = commitBatchSize
        self.commitDuration = commitDuration
        self.commitDelay = commitDelay
        self.searchIndexWaiting = searchIndexWaiting
        self.searchIndexBatchSize = searchIndexBatchSize
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.engine == rhs.engine && lhs.waitingReads == rhs.waitingReads
            && lhs.waitingWrites == rhs.waitingWrites && lhs.pool?.open == rhs.pool?.open
            && lhs.pool?.capacity == rhs.pool?.capacity && lhs.readWait == rhs.readWait
            && lhs.writeWait == rhs.writeWait && lhs.commitBatchSize == rhs.commitBatchSize
            && lhs.commitDuration == rhs.commitDuration && lhs.commitDelay == rhs.commitDelay
            && lhs.searchIndexWaiting == rhs.searchIndexWaiting
            && lhs.searchIndexBatchSize == rhs.searchIndexBatchSize
    }
}
