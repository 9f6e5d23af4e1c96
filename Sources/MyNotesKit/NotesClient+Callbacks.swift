import Dispatch

extension NotesClient {
    /// All notes of the account, newest first; `completion` runs once on `queue`.
    ///
    /// ```swift
    /// let request = client.query(on: .main) { result in
    ///     switch result {
    ///     case .success(let notes): show(notes)
    ///     case .failure(let error): alert(error.message(in: .english))
    ///     }
    /// }
    /// ```
    @discardableResult
    public func query(
        on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<[Note], NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(queryOperation(), on: queue, completion: completion)
    }

    /// Adds a note; `completion` runs once on `queue` with the note and its new ID.
    @discardableResult
    public func add(
        _ content: String, date: NoteDate = .now, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Note, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(addOperation(content, date: date), on: queue, completion: completion)
    }

    /// Replaces a note's content and date; `completion` runs once on `queue`.
    @discardableResult
    public func modify(
        id: Int, content: String, date: NoteDate, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Void, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(
            modifyOperation(id: id, content: content, date: date), on: queue, completion: completion
        )
    }

    /// Removes a note; `completion` runs once on `queue`.
    @discardableResult
    public func remove(
        id: Int, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Void, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(removeOperation(id: id), on: queue, completion: completion)
    }
}
