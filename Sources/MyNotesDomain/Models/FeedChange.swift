/// One entry of an account's change feed: the latest change to one note. The
/// feed keeps one entry per note, so a note changed twice since a cursor shows once, at
/// the position of its last change.
///
/// ```swift
/// case .page(let page) = try await store.changes(account: id, after: nil, limit: 200)
/// for change in page.changes where change.kind == .deleted { forget(change.noteID) }
/// ```
public struct FeedChange: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// The note was made after the reader's cursor.
        case created
        /// The note existed at the reader's cursor and changed since.
        case updated
        /// The note was removed (a tombstone, kept for the feed's retention).
        case deleted
    }

    /// The change's position in the account's feed: strictly increasing, from 1.
    public var sequence: Int64
    public var kind: Kind
    public var noteID: Int64
    /// The note's version; for a removed note, its last one.
    public var version: Int64
    /// The note as it is now; `nil` for ``Kind/deleted``.
    public var note: Note?

    public init(sequence: Int64, kind: Kind, noteID: Int64, version: Int64, note: Note?) {
        self.sequence = sequence
        self.kind = kind
        self.noteID = noteID
        self.version = version
        self.note = note
    }
}
