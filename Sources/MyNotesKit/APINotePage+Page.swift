import MyNotesAPI

extension APINotePage {
    /// The page as the SDK gives it; notes of a page carry no `ETag`.
    func page() throws(NotesClientError) -> NotePage {
        var result: [VersionedNote] = []
        for note in notes { result.append(try note.versioned(etag: nil)) }
        return NotePage(notes: result, nextCursor: nextCursor)
    }
}
