import Storage

extension Note {
    /// The note as REST API v1 writes it:
    /// `{"id":12,"date":"2026-11-29","content":"Buy milk","createdAt":"…","updatedAt":"…"}`.
    var json: [UInt8] {
        fields().finish()
    }

    /// The note as a search's answer writes it with `snippet=true`: its fields, then
    /// `"snippet"`.
    func json(snippet: SearchSnippet) -> [UInt8] {
        var writer = fields()
        writer.string("snippet", snippet.text)
        return writer.finish()
    }

    private func fields() -> JSONObjectWriter {
        var writer = JSONObjectWriter(capacity: content.utf8.count + RESTAPI.noteFieldsBytes)
        writer.integer("id", id)
        writer.string("date", date)
        writer.string("content", content)
        writer.string("createdAt", RFC3339.string(milliseconds: createdAt))
        writer.string("updatedAt", RFC3339.string(milliseconds: updatedAt))
        return writer
    }
}
