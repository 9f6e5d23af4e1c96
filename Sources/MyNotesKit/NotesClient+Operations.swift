extension NotesClient {
    func queryOperation() -> NotesOperation<[Note]> {
        legacy(LegacyRequest(action: .query), retry: configuration.retry) {
            response throws(NotesClientError) in
            guard let notes = response.notes else {
                throw .invalidResponse(
                    .malformed(format: self.configuration.wire, detail: "no Record"))
            }
            return notes
        }
    }

    func addOperation(_ content: String, date: NoteDate) -> NotesOperation<Note> {
        legacy(LegacyRequest(action: .add, date: date, content: content), retry: .never) {
            response throws(NotesClientError) in
            guard let id = response.id else {
                throw .invalidResponse(.malformed(format: self.configuration.wire, detail: "no ID"))
            }
            return Note(id: id, date: date, content: content)
        }
    }

    func modifyOperation(id: Int, content: String, date: NoteDate) -> NotesOperation<Void> {
        legacy(
            LegacyRequest(action: .modify, id: id, date: date, content: content), retry: .never
        ) { _ in }
    }

    func removeOperation(id: Int) -> NotesOperation<Void> {
        legacy(LegacyRequest(action: .remove, id: id), retry: .never) { _ in }
    }

    /// One protocol call: a status other than 200 is not a protocol answer; a 200 answer
    /// is read in the configured format and its `ResultCode` checked before `transform`.
    private func legacy<Value: Sendable>(
        _ request: LegacyRequest, retry: RetryPolicy,
        transform: @escaping @Sendable (LegacyResponse) throws(NotesClientError) -> Value
    ) -> NotesOperation<Value> {
        let format = configuration.wire
        return .exchange(request.urlRequest(for: configuration), retry: retry) {
            answer throws(NotesClientError) in
            guard answer.status == 200 else {
                throw .http(status: answer.status, body: answer.bodyExcerpt)
            }
            return try transform(LegacyResponse.decode(answer.body, format: format).validated())
        }
    }
}
