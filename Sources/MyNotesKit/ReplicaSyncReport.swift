/// What one ``NotesReplica/sync()`` did.
///
/// ```swift
/// let report = try await replica.sync()
/// print("\(report.pulled) changes in, \(report.pushed) out, \(report.pending) waiting")
/// ```
public struct ReplicaSyncReport: Sendable, Hashable {
    /// Changes taken from the server (notes, in a full reload).
    public var pulled = 0
    /// Local changes the server took.
    public var pushed = 0
    /// Local changes the server did not take as they were; both versions are kept.
    public var conflicts: [ReplicaConflict] = []
    /// Whether the replica was rebuilt from a full listing (its cursor had expired).
    public var reloaded = false
    /// Local changes still waiting (conflicts resolved with `.both` add some).
    public var pending = 0

    /// An empty report.
    public init() {}
}
