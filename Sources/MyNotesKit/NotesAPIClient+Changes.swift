import Dispatch
import MyNotesAPI

extension NotesAPIClient {
    /// The account's changes after `cursor`, oldest first (`GET /api/v1/changes`): what to
    /// apply to a copy of the notes kept since that cursor.
    ///
    /// ```swift
    /// var page = try await client.changes()          // no cursor: every note, as `created`
    /// while page.hasMore { page = try await client.changes(since: page.cursor) }
    /// let saved = page.cursor                         // resume from here next time
    /// ```
    /// - Parameters:
    ///   - cursor: a ``ChangePage/cursor`` or ``NoteChange/cursor`` from before; `nil`
    ///     for a full listing of the live notes (deletions are then not reported).
    ///   - limit: 1–1000 changes; the server's default (200) when `nil`.
    /// - Throws: `.rest(.cursorExpired)` when the server no longer keeps the deletions
    ///   since `cursor`: start again from `nil` (see ``NotesReplica``, which does).
    public func changes(since cursor: ChangeCursor? = nil, limit: Int? = nil)
        async throws(NotesClientError) -> ChangePage
    {
        try await engine.run(changesOperation(since: cursor, limit: limit))
    }

    /// Callback style of ``changes(since:limit:)``.
    @discardableResult
    public func changes(
        since cursor: ChangeCursor? = nil, limit: Int? = nil, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<ChangePage, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(
            changesOperation(since: cursor, limit: limit), on: queue, completion: completion)
    }

    /// The account's changes as they happen (`GET /api/v1/changes/stream`, Server-Sent
    /// Events), one ``NoteChange`` at a time, for as long as the loop runs.
    ///
    /// A dropped connection (a server restart, a network change, a proxy's timeout) is
    /// reconnected by itself, resuming after the last change received (`Last-Event-ID`),
    /// so none is missed or repeated. Cancelling the task that iterates ends the loop
    /// (the sequence simply ends); so does `break`.
    ///
    /// ```swift
    /// let page = try await client.changes()            // the notes as they are now …
    /// show(page.changes)
    /// for try await change in client.changeStream(since: page.cursor) {  // … then live
    ///     apply(change)
    /// }
    /// ```
    /// - Parameters:
    ///   - cursor: where to start; `nil` for only the changes made from now on (the
    ///     server's first block says where that is, so even a connection lost before the
    ///     first change resumes without a gap).
    ///   - reconnection: how soon to reconnect, by default as the server's `retry:` asks.
    /// - Throws: `.rest(.cursorExpired)` when `cursor` (or the position a reconnection
    ///   resumes from) is older than the server keeps deletions for; `.rest(.unauthorized)`
    ///   for a token that no longer works. Network failures are not thrown: they reconnect.
    public func changeStream(
        since cursor: ChangeCursor? = nil, reconnection: ChangeStream.Reconnection = .standard
    ) -> ChangeStream {
        ChangeStream(client: self, since: cursor, reconnection: reconnection)
    }

    func changesOperation(since cursor: ChangeCursor?, limit: Int?) -> NotesOperation<ChangePage> {
        var query: [(String, String)] = []
        if let cursor { query.append(("since", cursor.rawValue)) }
        if let limit { query.append(("limit", String(limit))) }
        let request = RESTRequest(.get, ["changes"], query: query)
        return .exchange(request.urlRequest(for: configuration), retry: configuration.retry) {
            answer throws(NotesClientError) in
            try RESTResponse.decode(answer, expecting: 200, as: APIChangePage.self)
                .page()
        }
    }
}

extension BlockingNotesAPIClient {
    /// Blocking style of ``NotesAPIClient/changes(since:limit:)``.
    public func changes(since cursor: ChangeCursor? = nil, limit: Int? = nil)
        throws(NotesClientError) -> ChangePage
    {
        try client.engine.wait(client.changesOperation(since: cursor, limit: limit))
    }
}
