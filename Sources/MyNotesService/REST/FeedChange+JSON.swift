import MyNotesDomain

extension FeedChange {
    /// The change as REST API v1 writes it, on one line (a stream's `data:` field):
    /// `{"cursor":"17","type":"updated","id":12,"version":3,"note":{…}}`, `note` being what
    /// `GET /api/v1/notes/{id}` answers, `null` for a removed note.
    var json: [UInt8] {
        var writer = JSONObjectWriter(capacity: (note?.jsonCapacity ?? 0) + 128)
        write(to: &writer)
        return writer.finish()
    }

    /// The change's members, into an object being written (a page of changes).
    func write(to writer: inout JSONObjectWriter) {
        writer.string("cursor", String(sequence))
        writer.string("type", kind.rawValue)
        writer.integer("id", noteID)
        writer.integer("version", version)
        if let note {
            writer.object("note") { note.write(to: &$0) }
        } else {
            writer.string("note", nil)
        }
    }

    /// The change as one Server-Sent Event: `id:` is its cursor, so that a client resumes
    /// after it with `Last-Event-ID`.
    var event: [UInt8] {
        Array("id: \(sequence)\nevent: change\ndata: ".utf8) + json + Array("\n\n".utf8)
    }
}
