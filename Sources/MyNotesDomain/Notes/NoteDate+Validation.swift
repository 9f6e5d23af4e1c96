import MyNotesProtocol

extension NoteDate {
    /// The date a client sent, or ``NoteError/invalidDate``.
    ///
    /// ```swift
    /// try NoteDate(validating: "2026-11-29 08:30").description  // "2026-11-29 08:30:00"
    /// ```
    package init(validating text: String) throws(NoteError) {
        guard let date = NoteDate(text) else { throw .invalidDate }
        self = date
    }
}
