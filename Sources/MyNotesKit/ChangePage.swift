/// One answer of ``NotesAPIClient/changes(since:limit:)``: changes in feed order, and where
/// to continue.
///
/// ```swift
/// var page = try await client.changes(since: saved)
/// apply(page.changes)
/// while page.hasMore {
///     page = try await client.changes(since: page.cursor)
///     apply(page.changes)
/// }
/// saved = page.cursor
/// ```
public struct ChangePage: Sendable, Hashable {
    /// The changes, oldest first.
    public let changes: [NoteChange]
    /// Where the next call starts: after the last change, or the cursor asked from when
    /// nothing is new.
    public let cursor: ChangeCursor
    /// Whether more changes wait beyond ``cursor`` (the page was full).
    public let hasMore: Bool

    /// Creates a page value.
    public init(changes: [NoteChange], cursor: ChangeCursor, hasMore: Bool) {
        self.changes = changes
        self.cursor = cursor
        self.hasMore = hasMore
    }
}
