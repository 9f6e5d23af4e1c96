/// A note as a ``NotesReplica`` shows it: the server's version with this replica's
/// unpushed changes on top.
///
/// ```swift
/// for note in await replica.notes {
///     print(note.id, note.date, note.content, note.isPending ? "(not synced)" : "")
/// }
/// ```
public struct ReplicaNote: Sendable, Hashable, Identifiable {
    /// The server's ID, or a local one until the note is pushed.
    public let id: ReplicaNoteID
    /// The date the note carries.
    public let date: NoteDate
    /// The text.
    public let content: String
    /// Whether a change made here to this note waits for the next sync.
    public let isPending: Bool

    /// Creates a note value, e.g. to compare with what a replica holds.
    public init(id: ReplicaNoteID, date: NoteDate, content: String, isPending: Bool) {
        self.id = id
        self.date = date
        self.content = content
        self.isPending = isPending
    }

    /// The note as the SDK's other calls show it, once it has a server ID.
    public var note: Note? {
        id.serverID.map { Note(id: $0, date: date, content: content) }
    }
}
