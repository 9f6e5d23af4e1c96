import MyNotesDomain

extension Note {
    /// The note as REST API v1 writes it:
    /// `{"id":12,"date":"2026-11-29","content":"Buy milk","createdAt":"…","updatedAt":"…"}`.
    var json: [UInt8] {
        var writer = JSONObjectWriter(capacity: jsonCapacity)
        write(to: &writer)
        return writer.finish()
    }

    /// Bytes enough for the note's JSON without its buffer growing (a snippet aside).
    var jsonCapacity: Int { content.utf8.count + RESTAPI.noteFieldsBytes }

    /// The note's members, into an object being written (a page's, a change's).
    func write(to writer: inout JSONObjectWriter) {
        writer.integer("id", id)
        writer.date("date", date)
        writer.string("content", content)
        writer.string("createdAt", RFC3339.string(milliseconds: createdAt))
        writer.string("updatedAt", RFC3339.string(milliseconds: updatedAt))
    }
}
