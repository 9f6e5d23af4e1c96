/// Changes of an account's feed after a cursor, oldest first (see ``FeedChange``).
///
/// ```swift
/// var cursor: Int64? = nil
/// repeat {
///     guard case .page(let page) = try await store.changes(account: id, after: cursor, limit: 200)
///     else { cursor = nil; continue }  // expired: start again from nothing
///     apply(page.changes)
///     cursor = page.cursor
/// } while page.hasMore
/// ```
public struct FeedPage: Sendable, Hashable {
    public var changes: [FeedChange]
    /// Where the next read starts: the last change's sequence while more follow, else the
    /// account's position now (past any change this reader need not see).
    public var cursor: Int64
    /// Whether more changes follow `cursor` already.
    public var hasMore: Bool

    public init(changes: [FeedChange], cursor: Int64, hasMore: Bool) {
        self.changes = changes
        self.cursor = cursor
        self.hasMore = hasMore
    }
}

/// What a read of the change feed found: a page, or a cursor the feed can no longer
/// answer for (tombstones after it were purged, or it is past the account's position, as
/// one from another database is), so the reader must start again from nothing.
public enum FeedRead: Sendable, Hashable {
    case page(FeedPage)
    case expired
}
