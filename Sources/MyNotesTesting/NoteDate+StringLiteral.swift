import MyNotesProtocol

// Tests write dates as literals (`NoteDraft(date: "2026-11-29", …)`, `note.date ==
// "2026-11-29"`), which read as the wire does. Only test code gets this: the server parses
// what it is sent and what it reads back, and never traps on a date.
extension NoteDate: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// Traps on a literal that is no date: a mistake in the test, not a case it tests.
    public init(stringLiteral text: String) {
        guard let date = NoteDate(text) else {
            preconditionFailure("\"\(text)\" is no NoteDate: yyyy-MM-dd[ HH:mm[:ss]]")
        }
        self = date
    }
}
