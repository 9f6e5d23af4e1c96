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
        start(queryOperation(), on: queue, completion: completion)
    }

    /// Adds a note; `completion` runs once on `queue` with the note and its new ID.
    @discardableResult
    public func add(
        _ content: String, date: NoteDate = .now, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Note, NotesClientError>) -> Void
    ) -> NotesRequest {
        start(addOperation(content, date: date), on: queue, completion: completion)
    }

    /// Replaces a note's content and date; `completion` runs once on `queue`.
    @discardableResult
    public func modify(
        id: Int, content: String, date: NoteDate, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Void, NotesClientError>) -> Void
    ) -> NotesRequest {
        start(
            modifyOperation(id: id, content: content, date: date), on: queue, completion: completion
        )
    }

    /// Removes a note; `completion` runs once on `queue`.
    @discardableResult
    public func remove(
        id: Int, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Void, NotesClientError>) -> Void
    ) -> NotesRequest {
        start(removeOperation(id: id), on: queue, completion: completion)
    }

    private func start<Value: Sendable>(
        _ operation: NotesOperation<Value>, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Value, NotesClientError>) -> Void
    ) -> NotesRequest {
        let handle = NotesRequest()
        perform(operation, handle: handle) { result in queue.async { completion(result) } }
        return handle
    }
}
