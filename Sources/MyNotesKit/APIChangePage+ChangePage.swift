import MyNotesAPI

extension APIChangePage {
    /// The page as the SDK gives it.
    func page() throws(NotesClientError) -> ChangePage {
        var result: [NoteChange] = []
        for change in changes { result.append(try change.change()) }
        return ChangePage(changes: result, cursor: ChangeCursor(cursor), hasMore: hasMore)
    }
}
