import Dispatch

/// The completion-handler style of ``NotesAPIClient``: each call returns a
/// ``NotesRequest`` to cancel it, and `completion` runs exactly once on `queue`
/// (with `.failure(.cancelled)` after a cancel).
///
/// ```swift
/// let request = client.allNotes(on: .main) { result in
///     switch result {
///     case .success(let notes): self.show(notes)
///     case .failure(let error): self.alert(error.message(in: .english))
///     }
/// }
/// request.cancel()  // e.g. when the screen goes away
/// ```
extension NotesAPIClient {
    /// Callback style of ``signUp(email:password:)``.
    @discardableResult
    public func signUp(
        email: String, password: String, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Session, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(
            signUpOperation(email: email, password: password), on: queue, completion: completion)
    }

    /// Callback style of ``signIn(email:password:)``.
    @discardableResult
    public func signIn(
        email: String, password: String, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Session, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(
            signInOperation(email: email, password: password), on: queue, completion: completion)
    }

    /// Callback style of ``signOut()``.
    @discardableResult
    public func signOut(
        on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Void, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(signOutOperation(), on: queue, completion: completion)
    }

    /// Callback style of ``notes(limit:cursor:matching:)``.
    @discardableResult
    public func notes(
        limit: Int? = nil, cursor: String? = nil, matching query: String? = nil,
        on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<NotePage, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(
            pageOperation(limit: limit, cursor: cursor, query: query), on: queue,
            completion: completion)
    }

    /// Callback style of ``allNotes(matching:pageSize:)``; the handle cancels whichever
    /// page is being fetched.
    @discardableResult
    public func allNotes(
        matching query: String? = nil, pageSize: Int? = nil, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<[VersionedNote], NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(
            allNotesOperation(query: query, pageSize: pageSize), on: queue, completion: completion)
    }

    /// Callback style of ``note(id:)``.
    @discardableResult
    public func note(
        id: Int, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<VersionedNote, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(noteOperation(id: id), on: queue, completion: completion)
    }

    /// Callback style of ``create(_:date:)``.
    @discardableResult
    public func create(
        _ content: String, date: NoteDate? = nil, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<VersionedNote, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(createOperation(content, date: date), on: queue, completion: completion)
    }

    /// Callback style of ``replace(id:content:date:ifMatch:)``.
    @discardableResult
    public func replace(
        id: Int, content: String, date: NoteDate, ifMatch: String? = nil, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<VersionedNote, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(
            replaceOperation(id: id, content: content, date: date, ifMatch: ifMatch), on: queue,
            completion: completion)
    }

    /// Callback style of ``update(id:content:date:ifMatch:)``.
    @discardableResult
    public func update(
        id: Int, content: String? = nil, date: NoteDate? = nil, ifMatch: String? = nil,
        on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<VersionedNote, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(
            updateOperation(id: id, content: content, date: date, ifMatch: ifMatch), on: queue,
            completion: completion)
    }

    /// Callback style of ``delete(id:ifMatch:)``.
    @discardableResult
    public func delete(
        id: Int, ifMatch: String? = nil, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Void, NotesClientError>) -> Void
    ) -> NotesRequest {
        engine.start(deleteOperation(id: id, ifMatch: ifMatch), on: queue, completion: completion)
    }
}
