import MyNotesProtocol

/// A stored note.
public struct Note: Sendable, Hashable {
    public var id: Int64
    /// The date as given: a bare day, or a day and a time to the second.
    public var date: NoteDate
    public var content: String
    /// When the note was created and last changed, in milliseconds since 1970 (UTC),
    /// set by the store. Integers, not text: a query reads many of them.
    public var createdAt: Int64
    public var updatedAt: Int64
    /// Starts at 1 and grows by one with every change, so it tells two states apart
    /// even when both were written in the same millisecond (an ETag needs that).
    public var version: Int64

    public init(
        id: Int64, date: NoteDate, content: String, createdAt: Int64, updatedAt: Int64,
        version: Int64 = 1
    ) {
        self.id = id
        self.date = date
        self.content = content
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
    }

    /// Where the note stands in the newest-first order of its account's notes.
    public var position: NotePosition {
        NotePosition(sortKey: date.sortKey, id: id)
    }
}

/// What a client writes: a note's date and content, already validated.
public struct NoteDraft: Sendable, Hashable {
    public var date: NoteDate
    public var content: String

    public init(date: NoteDate, content: String) {
        self.date = date
        self.content = content
    }
}
