/// A place in an account's newest-first list of notes: the note's date as a sortable
/// point in time, then its ID. Pages continue strictly after a position, so notes
/// added or removed elsewhere in the list neither repeat nor skip the ones that remain.
///
/// ```swift
/// let next = try store.notes(account: id, page: NotePage(after: last.position, limit: 50))
/// ```
public struct NotePosition: Sendable, Hashable {
    /// `yyyy-MM-dd HH:mm:ss` (a bare date is midnight).
    public var sortKey: String
    public var id: Int64

    public init(sortKey: String, id: Int64) {
        self.sortKey = sortKey
        self.id = id
    }
}
