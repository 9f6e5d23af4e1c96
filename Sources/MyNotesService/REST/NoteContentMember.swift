/// Only the `content` of a note body, read when the date was refused first, so that a
/// refusal of the content still comes before it (see `RESTAPI.noteBody`).
struct NoteContentMember: Decodable {
    /// The members a note body may have.
    static let allowed: Set<String> = ["content", "date"]

    var content: String?
}
