import BoundedExecution
import Foundation
import MyNotesDomain

/// How much work the store takes on at once, and what it tells callers it refuses.
///
/// ```swift
/// var limits = StoreLimits()
/// limits.readers = ExecutorLimits(threads: 8, queueLimit: 512)
/// let store = try SQLiteNoteStore(path: "mynotes.sqlite", limits: limits)
/// ```
public struct StoreLimits: Sendable, Hashable {
    /// Threads that run reads, each with its own read-only connection, and how many
    /// reads may wait for one. Default: one thread per core, 1,024 waiting reads per
    /// thread: a burst from a thousand keep-alive connections fits (some 30 ms of
    /// ordinary reads), a pile-up of slow ones is refused.
    public var readers: ExecutorLimits
    /// Writes that may wait for the next group commit. Default 4,096, the default
    /// connection limit: one batch can hold them all.
    public var writeQueueLimit: Int
    /// What ``StoreError/overloaded(retryAfter:)`` suggests. Default 1 s.
    public var retryAfter: Duration
    /// PostgreSQL only: connections to the database, each with a thread of its own that
    /// runs the store's statements on it (`--db-pool`). Default: four per core, at least 8,
    /// so that commits waiting for their fsync overlap. Statements waiting for one of them
    /// are bounded by `readers.queueLimit` plus `writeQueueLimit`.
    public var connections: Int
    /// SQLite only: how the writer gathers writes into one commit. Default
    /// ``GroupCommit/standard``.
    public var groupCommit: GroupCommit

    public init(
        readers: ExecutorLimits = Self.defaultReaders, writeQueueLimit: Int = 4_096,
        retryAfter: Duration = .seconds(1), connections: Int = Self.defaultConnections,
        groupCommit: GroupCommit = .standard
    ) {
        self.readers = readers
        self.writeQueueLimit = writeQueueLimit
        self.retryAfter = retryAfter
        self.connections = max(1, connections)
        self.groupCommit = groupCommit
    }

    public static var defaultConnections: Int {
        max(8, 4 * ProcessInfo.processInfo.activeProcessorCount)
    }

    public static var defaultReaders: ExecutorLimits {
        let cores = UsableCores.count
        return ExecutorLimits(threads: cores, queueLimit: 1_024 * cores)
    }
}
