import Storage

extension Note {
    /// The note as REST API v1 writes it:
    /// `{"id":12,"date":"2026-11-29","content":"Buy milk","createdAt":"…","updatedAt":"…"}`.
    var json: [UInt8] {
        var writer = JSONObjectWriter()
        writer.integer("id", id)
        writer.string("date", date)
        writer.string("content", content)
        writer.string("createdAt", RFC3339.string(milliseconds: createdAt))
        writer.string("updatedAt", RFC3339.string(milliseconds: updatedAt))
        return writer.finish()
    }
}
