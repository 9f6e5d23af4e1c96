import MyNotesProtocol

/// A change to a note: the fields given replace the stored ones, the others stay as
/// the note is when the write runs (a `PATCH` merges into the current row, not into a
/// copy read earlier).
///
/// ```swift
/// NoteChange(content: "Buy oat milk")                                // date unchanged
/// NoteChange(NoteDraft(date: NoteDate("2026-11-29")!, content: "x")) // both replaced
/// ```
public struct NoteChange: Sendable, Hashable {
    public var date: NoteDate?
    public var content: String?

    public init(date: NoteDate? = nil, content: String? = nil) {
        self.date = date
        self.content = content
    }

    /// Replaces both fields.
    public init(_ draft: NoteDraft) {
        self.init(date: draft.date, content: draft.content)
    }
}
