extension NotesClient {
    func queryOperation() -> NotesOperation<[Note]> {
        NotesOperation(request: LegacyRequest(action: .query), retry: configuration.retry) {
            response throws(NotesClientError) in
            guard let notes = response.notes else {
                throw .invalidResponse(
                    .malformed(format: self.configuration.wire, detail: "no Record"))
            }
            return notes
        }
    }

    func addOperation(_ content: String, date: NoteDate) -> NotesOperation<Note> {
        NotesOperation(
            request: LegacyRequest(action: .add, date: date, content: content), retry: .never
        ) { response throws(NotesClientError) in
            guard let id = response.id else {
                throw .invalidResponse(.malformed(format: self.configuration.wire, detail: "no ID"))
            }
            return Note(id: id, date: date, content: content)
        }
    }

    func modifyOperation(id: Int, content: String, date: NoteDate) -> NotesOperation<Void> {
        NotesOperation(
            request: LegacyRequest(action: .modify, id: id, date: date, content: content),
            retry: .never
        ) { _ in }
    }

    func removeOperation(id: Int) -> NotesOperation<Void> {
        NotesOperation(request: LegacyRequest(action: .remove, id: id), retry: .never) { _ in }
    }
}
