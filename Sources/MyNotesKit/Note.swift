/// A note as the server keeps it.
///
/// ```swift
/// let notes = try await client.query()
/// for note in notes { print(note.id, note.date, note.content) }
/// ```
public struct Note: Sendable, Hashable, Identifiable {
    /// The server's ID of the note, unique on that server.
    public let id: Int
    /// The date the note carries.
    public let date: NoteDate
    /// The text, exactly as stored (CRLF, emoji and all).
    public let content: String

    /// Creates a note value, e.g. to compare with what the server returned.
    public init(id: Int, date: NoteDate, content: String) {
        self.id = id
        self.date = date
        self.content = content
    }
}
