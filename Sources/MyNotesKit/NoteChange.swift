/// One entry of an account's change feed: a note created, updated or deleted.
///
/// The feed keeps only each note's latest change, so a note created and edited since the
/// cursor appears once, as `created`, with its latest content.
///
/// ```swift
/// for change in try await client.changes(since: cursor).changes {
///     switch change.kind {
///     case .created, .updated: show(change.note!)
///     case .deleted: hide(change.id)
///     }
/// }
/// ```
public struct NoteChange: Sendable, Hashable, Identifiable {
    /// What happened to the note.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The note was created after the cursor the changes were asked from.
        case created
        /// The note existed at the cursor and was changed since.
        case updated
        /// The note was removed; ``NoteChange/note`` is `nil`.
        case deleted
    }

    /// What happened to the note.
    public let kind: Kind
    /// The note's ID.
    public let id: Int
    /// The note's version after the change (for `deleted`, its last version).
    public let version: Int
    /// The note as it now is, with its ETag; `nil` when it was deleted.
    public let note: VersionedNote?
    /// The feed's position just after this change: resume from it to get what follows.
    public let cursor: ChangeCursor

    /// Creates a change value, e.g. to compare with what the server sent.
    public init(kind: Kind, id: Int, version: Int, note: VersionedNote?, cursor: ChangeCursor) {
        self.kind = kind
        self.id = id
        self.version = version
        self.note = note
        self.cursor = cursor
    }

    /// The note's ETag at this version (`"12.3"`), as `If-Match` wants it.
    public var etag: String { Self.etag(id: id, version: version) }

    static func etag(id: Int, version: Int) -> String { "\"\(id).\(version)\"" }
}
