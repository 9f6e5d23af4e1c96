/// The blocking style of ``NotesAPIClient``: each call waits for the answer.
///
/// For command-line tools, scripts and background threads. **Never call it on a UI
/// thread**: the interface freezes for as long as the network takes, up to the timeout
/// (times the attempts, for reads; times the pages, for `allNotes`).
///
/// ```swift
/// let session = try api.blocking.signIn(email: "ann@example.com", password: password)
/// let client = api.authenticated(session.token)
/// let note = try client.blocking.create("Buy milk")
/// let notes = try client.blocking.allNotes(matching: "milk")
/// ```
public struct BlockingNotesAPIClient: Sendable {
    /// The client the calls go through.
    public let client: NotesAPIClient

    /// Blocking style of ``NotesAPIClient/signUp(email:password:)``.
    public func signUp(email: String, password: String) throws(NotesClientError) -> Session {
        try client.engine.wait(client.signUpOperation(email: email, password: password))
    }

    /// Blocking style of ``NotesAPIClient/signIn(email:password:)``.
    public func signIn(email: String, password: String) throws(NotesClientError) -> Session {
        try client.engine.wait(client.signInOperation(email: email, password: password))
    }

    /// Blocking style of ``NotesAPIClient/signOut()``.
    public func signOut() throws(NotesClientError) {
        try client.engine.wait(client.signOutOperation())
    }

    /// Blocking style of ``NotesAPIClient/notes(limit:cursor:matching:)``.
    public func notes(limit: Int? = nil, cursor: String? = nil, matching query: String? = nil)
        throws(NotesClientError) -> NotePage
    {
        try client.engine.wait(client.pageOperation(limit: limit, cursor: cursor, query: query))
    }

    /// Blocking style of ``NotesAPIClient/allNotes(matching:pageSize:)``.
    public func allNotes(matching query: String? = nil, pageSize: Int? = nil)
        throws(NotesClientError) -> [VersionedNote]
    {
        try client.engine.wait(client.allNotesOperation(query: query, pageSize: pageSize))
    }

    /// Blocking style of ``NotesAPIClient/note(id:)``.
    public func note(id: Int) throws(NotesClientError) -> VersionedNote {
        try client.engine.wait(client.noteOperation(id: id))
    }

    /// Blocking style of ``NotesAPIClient/create(_:date:)``.
    public func create(_ content: String, date: NoteDate? = nil) throws(NotesClientError)
        -> VersionedNote
    {
        try client.engine.wait(client.createOperation(content, date: date))
    }

    /// Blocking style of ``NotesAPIClient/replace(id:content:date:ifMatch:)``.
    public func replace(id: Int, content: String, date: NoteDate, ifMatch: String? = nil)
        throws(NotesClientError) -> VersionedNote
    {
        try client.engine.wait(
            client.replaceOperation(id: id, content: content, date: date, ifMatch: ifMatch))
    }

    /// Blocking style of ``NotesAPIClient/update(id:content:date:ifMatch:)``.
    public func update(
        id: Int, content: String? = nil, date: NoteDate? = nil, ifMatch: String? = nil
    ) throws(NotesClientError) -> VersionedNote {
        try client.engine.wait(
            client.updateOperation(id: id, content: content, date: date, ifMatch: ifMatch))
    }

    /// Blocking style of ``NotesAPIClient/delete(id:ifMatch:)``.
    public func delete(id: Int, ifMatch: String? = nil) throws(NotesClientError) {
        try client.engine.wait(client.deleteOperation(id: id, ifMatch: ifMatch))
    }
}

extension NotesAPIClient {
    /// The same calls, blocking the calling thread until the answer; never on a UI thread.
    public var blocking: BlockingNotesAPIClient { BlockingNotesAPIClient(client: self) }
}
