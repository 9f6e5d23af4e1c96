/// A stored note.
public struct Note: Sendable, Hashable {
    public var id: Int64
    /// The date as given: `yyyy-MM-dd` or `yyyy-MM-dd HH:mm:ss`.
    public var date: String
    public var content: String
    /// When the note was created and last changed, in milliseconds since 1970 (UTC),
    /// set by the store. Integers, not text: a query reads many of them.
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(id: Int64, date: String, content: String, createdAt: Int64, updatedAt: Int64) {
        self.id = id
        self.date = date
        self.content = content
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What a client writes: a note's date and content, already validated.
public struct NoteDraft: Sendable, Hashable {
    /// `yyyy-MM-dd` or `yyyy-MM-dd HH:mm:ss`.
    public var date: String
    public var content: String

    public init(date: String, content: String) {
        self.date = date
        self.content = content
    }

    /// The date as a sortable point in time: a bare date is midnight.
    var sortKey: String { date.utf8.count == 10 ? date + " 00:00:00" : date }
}

/// How many notes one account may hold.
public enum NoteQuota: Sendable, Hashable {
    case unlimited
    case atMost(Int)
}
