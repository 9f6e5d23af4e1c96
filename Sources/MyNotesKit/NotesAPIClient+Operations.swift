import MyNotesAPI

extension NotesAPIClient {
    typealias Wire = RESTResponse

    func signUpOperation(email: String, password: String) -> NotesOperation<Session> {
        call(.post, ["accounts"], json: APICredentials(email: email, password: password)) {
            answer throws(NotesClientError) in
            let account = try Wire.decode(answer, expecting: 201, as: APIAccountCreated.self)
            return Session(email: account.email, token: account.token)
        }
    }

    func signInOperation(email: String, password: String) -> NotesOperation<Session> {
        call(.post, ["sessions"], json: APICredentials(email: email, password: password)) {
            answer throws(NotesClientError) in
            let token = try Wire.decode(answer, expecting: 201, as: APISessionToken.self).token
            return Session(email: email, token: token)
        }
    }

    func signOutOperation() -> NotesOperation<Void> {
        call(.delete, ["sessions", "current"]) { answer throws(NotesClientError) in
            try Wire.check(answer, expecting: 204)
        }
    }

    func pageOperation(limit: Int?, cursor: String?, query: String?) -> NotesOperation<NotePage> {
        var parameters: [(String, String)] = []
        if let limit { parameters.append(("limit", String(limit))) }
        if let cursor { parameters.append(("cursor", cursor)) }
        if let query { parameters.append(("q", query)) }
        return call(.get, ["notes"], query: parameters, retry: configuration.retry) {
            answer throws(NotesClientError) in
            try Wire.decode(answer, expecting: 200, as: APINotePage.self).page()
        }
    }

    /// Page after page, until the last, under one handle.
    func allNotesOperation(
        query: String?, pageSize: Int?, cursor: String? = nil, collected: [VersionedNote] = []
    ) -> NotesOperation<[VersionedNote]> {
        pageOperation(limit: pageSize, cursor: cursor, query: query).flatMap { page in
            let notes = collected + page.notes
            guard let next = page.nextCursor, next != cursor else { return .value(notes) }
            return self.allNotesOperation(
                query: query, pageSize: pageSize, cursor: next, collected: notes)
        }
    }

    func noteOperation(id: Int) -> NotesOperation<VersionedNote> {
        call(.get, ["notes", String(id)], retry: configuration.retry) {
            answer throws(NotesClientError) in try Wire.note(answer, expecting: 200)
        }
    }

    func createOperation(_ content: String, date: NoteDate?) -> NotesOperation<VersionedNote> {
        let fields = APINewNote(content: content, date: date?.description)
        return call(.post, ["notes"], json: fields) { answer throws(NotesClientError) in
            try Wire.note(answer, expecting: 201)
        }
    }

    func replaceOperation(id: Int, content: String, date: NoteDate, ifMatch: String?)
        -> NotesOperation<VersionedNote>
    {
        let fields = APINoteReplacement(content: content, date: date.description)
        return writeOperation(id: id, .put, fields, ifMatch: ifMatch)
    }

    func updateOperation(id: Int, content: String?, date: NoteDate?, ifMatch: String?)
        -> NotesOperation<VersionedNote>
    {
        let fields = APINotePatch(content: content, date: date?.description)
        return writeOperation(id: id, .patch, fields, ifMatch: ifMatch)
    }

    /// A `PUT` or `PATCH` of note `id`; a `412` reads the note as it now is.
    private func writeOperation(
        id: Int, _ method: RESTRequest.Method, _ fields: some Encodable & Sendable,
        ifMatch: String?
    ) -> NotesOperation<VersionedNote> {
        call(method, ["notes", String(id)], json: fields, ifMatch: ifMatch) {
            answer throws(NotesClientError) in try Wire.note(answer, expecting: 200)
        }
        .fetchingCurrentOnConflict(of: id, from: self)
    }

    func deleteOperation(id: Int, ifMatch: String?) -> NotesOperation<Void> {
        call(.delete, ["notes", String(id)], ifMatch: ifMatch) { answer throws(NotesClientError) in
            try Wire.check(answer, expecting: 204)
        }
        .fetchingCurrentOnConflict(of: id, from: self)
    }

    /// One REST exchange, never retried unless `retry` says so.
    private func call<Value: Sendable>(
        _ method: RESTRequest.Method, _ path: [String], query: [(String, String)] = [],
        json: (any Encodable)? = nil, ifMatch: String? = nil, retry: RetryPolicy = .never,
        decode: @escaping @Sendable (HTTPAnswer) throws(NotesClientError) -> Value
    ) -> NotesOperation<Value> {
        let request = RESTRequest(method, path, query: query, json: json, ifMatch: ifMatch)
        return .exchange(request.urlRequest(for: configuration), retry: retry, decode: decode)
    }
}

extension NotesOperation {
    /// On a 412, reads the note as it now is and fails with it in
    /// ``NotesClientError/RESTFailureReason/editConflict(_:current:)``; `current` stays
    /// `nil` when the note is gone or cannot be read.
    func fetchingCurrentOnConflict(of id: Int, from client: NotesAPIClient) -> NotesOperation {
        recover { error in
            guard case .rest(.editConflict(let problem, nil)) = error else { return nil }
            return client.noteOperation(id: id).mapResult { fetched in
                switch fetched {
                case .success(let current):
                    return .failure(.rest(.editConflict(problem, current: current)))
                case .failure(.cancelled): return .failure(.cancelled)
                case .failure: return .failure(error)
                }
            }
        }
    }
}
