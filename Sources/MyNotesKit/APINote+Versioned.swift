import MyNotesAPI
import MyNotesProtocol

extension APINote {
    /// The note as the SDK gives it, with `etag` (the answer's, or the one a change
    /// implies); a date or time the SDK cannot read is an invalid response.
    func versioned(etag: String?) throws(NotesClientError) -> VersionedNote {
        guard let noteDate = NoteDate(date) else { throw .invalidResponse(.invalidDate(date)) }
        guard let created = RESTResponse.timestamp(createdAt),
            let updated = RESTResponse.timestamp(updatedAt)
        else {
            throw .invalidResponse(.malformed(format: .json, detail: "a note time is not RFC 3339"))
        }
        return VersionedNote(
            note: Note(id: Int(id), date: noteDate, content: content), createdAt: created,
            updatedAt: updated, etag: etag)
    }
}
