import MyNotesProtocol

extension NoteDate {
    /// The date as the stores order notes by it, as text: `yyyy-MM-dd HH:mm:ss`, a bare
    /// day being its midnight. Text compares in the order of time, so an index on it
    /// serves pages newest first in either database.
    ///
    /// ```swift
    /// NoteDate("2026-11-29")!.sortKey        // "2026-11-29 00:00:00"
    /// NoteDate("2026-11-29 08:30")!.sortKey  // "2026-11-29 08:30:00"
    /// ```
    package var sortKey: String {
        time == nil ? description + " 00:00:00" : description
    }
}
