/// A page of the change feed, `GET /api/v1/changes`:
/// `{"changes":[…],"cursor":"17","hasMore":false}`.
public struct APIChangePage: Codable, Sendable, Hashable {
    public var changes: [APIChange]
    /// What to pass as `since` next.
    public var cursor: String
    public var hasMore: Bool

    public init(changes: [APIChange], cursor: String, hasMore: Bool) {
        self.changes = changes
        self.cursor = cursor
        self.hasMore = hasMore
    }
}
