import Foundation
import MyNotesProtocol

/// A client of a MyNotes server's REST API v1 (`/api/v1`): accounts, sessions, and notes
/// with pagination, search and ETags.
///
/// A type of its own beside ``NotesClient``, not a mode of it: the two protocols have
/// different calls (sign-up, pages, PATCH, `If-Match`) and different results
/// (``VersionedNote`` with times and an ETag), so one type would carry calls that fail
/// in the other mode. What they share is below the surface: the same engine (timeouts,
/// retries, cancellation), ``NotesRequest`` handles, ``RetryPolicy``, ``Note`` and
/// ``NoteDate``, and the one error type, ``NotesClientError``, whose
/// ``NotesClientError/rest(_:)`` case holds the API's problems.
///
/// Each call comes in three styles that behave the same:
///
/// ```swift
/// let api = NotesAPIClient(server: URL(string: "https://notes.example.com")!)
/// let session = try await api.signIn(email: "ann@example.com", password: password)
/// let client = api.authenticated(session.token)
///
/// // async/await, the main style
/// let note = try await client.create("Buy milk")
/// for try await page in client.pages(matching: "milk") { show(page.notes) }
///
/// // completion handler, called once on the queue you choose
/// let request = client.note(id: note.id, on: .main) { result in print(result) }
/// request.cancel()
///
/// // blocking, for scripts and command-line tools; never on a UI thread
/// try client.blocking.delete(id: note.id)
/// ```
///
/// Reads (`notes`, `note`, `allNotes`) are retried on transient failures by
/// ``Configuration/retry``; writes, sign-up and sign-in never are.
public final class NotesAPIClient: Sendable {
    /// The configuration the client was made with.
    public let configuration: Configuration
    let engine: RequestEngine

    /// Creates a client.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        engine = RequestEngine(
            server: configuration.server, timeout: configuration.timeout,
            clock: configuration.clock)
    }

    /// Creates a client with the default configuration for a server and, if any, a token.
    public convenience init(server: URL, token: String? = nil) {
        self.init(Configuration(server: server, token: token))
    }

    /// The same client acting with `token`, e.g. after ``signIn(email:password:)``.
    ///
    /// ```swift
    /// let client = api.authenticated(try await api.signIn(email: email, password: pw).token)
    /// ```
    public func authenticated(_ token: String?) -> NotesAPIClient {
        var configuration = self.configuration
        configuration.token = token
        return NotesAPIClient(configuration)
    }

    // MARK: Accounts and sessions

    /// Creates an account (`POST /api/v1/accounts`) and returns its first session.
    ///
    /// ```swift
    /// let session = try await api.signUp(email: "ann@example.com", password: "correct horse")
    /// ```
    /// Fails with `.rest(.alreadyExists)` for a taken email, `.rest(.unprocessable)` for an
    /// invalid email or a password under 8 characters, `.rest(.forbidden)` if sign-up is off.
    public func signUp(email: String, password: String) async throws(NotesClientError) -> Session {
        try await engine.run(signUpOperation(email: email, password: password))
    }

    /// Signs in (`POST /api/v1/sessions`): a new token; the account's other tokens stay valid.
    ///
    /// ```swift
    /// let session = try await api.signIn(email: "ann@example.com", password: password)
    /// ```
    /// Fails with `.rest(.unauthorized)` for a wrong email or password, and with
    /// `.rest(.tooManyRequests(_, retryAfter:))` after too many failures.
    public func signIn(email: String, password: String) async throws(NotesClientError) -> Session {
        try await engine.run(signInOperation(email: email, password: password))
    }

    /// Signs out (`DELETE /api/v1/sessions/current`): the client's token stops working.
    ///
    /// ```swift
    /// try await client.signOut()
    /// ```
    public func signOut() async throws(NotesClientError) {
        try await engine.run(signOutOperation())
    }

    // MARK: Notes

    /// One page of notes, newest first (`GET /api/v1/notes`).
    ///
    /// ```swift
    /// let first = try await client.notes(limit: 20)
    /// let second = try await client.notes(limit: 20, cursor: first.nextCursor)
    /// let found = try await client.notes(matching: "牛奶")
    /// ```
    /// - Parameters:
    ///   - limit: 1–200 notes; the server's default (50) when `nil`.
    ///   - cursor: a page's ``NotePage/nextCursor``, `nil` for the first page.
    ///   - query: only notes whose content contains it, ignoring case (`q`).
    public func notes(limit: Int? = nil, cursor: String? = nil, matching query: String? = nil)
        async throws(NotesClientError) -> NotePage
    {
        try await engine.run(pageOperation(limit: limit, cursor: cursor, query: query))
    }

    /// Every page of notes, newest first, fetched as the loop asks for them.
    ///
    /// ```swift
    /// for try await page in client.pages(matching: "milk", pageSize: 100) {
    ///     for note in page.notes { print(note.id, note.content) }
    /// }
    /// ```
    public func pages(matching query: String? = nil, pageSize: Int? = nil) -> NotePages {
        NotePages(client: self, query: query, pageSize: pageSize)
    }

    /// All notes (matching `query`, if given), newest first, every page fetched.
    ///
    /// ```swift
    /// let notes = try await client.allNotes()
    /// ```
    public func allNotes(matching query: String? = nil, pageSize: Int? = nil)
        async throws(NotesClientError) -> [VersionedNote]
    {
        try await engine.run(allNotesOperation(query: query, pageSize: pageSize))
    }

    /// One note with its ETag (`GET /api/v1/notes/{id}`).
    ///
    /// ```swift
    /// let note = try await client.note(id: 12)
    /// ```
    public func note(id: Int) async throws(NotesClientError) -> VersionedNote {
        try await engine.run(noteOperation(id: id))
    }

    /// Creates a note (`POST /api/v1/notes`); without a date the server uses now (UTC).
    ///
    /// ```swift
    /// let note = try await client.create("Call Bob", date: NoteDate("2026-12-01 09:00"))
    /// ```
    public func create(_ content: String, date: NoteDate? = nil) async throws(NotesClientError)
        -> VersionedNote
    {
        try await engine.run(createOperation(content, date: date))
    }

    /// Replaces a note's content and date (`PUT`), only if it still has the ETag `ifMatch`
    /// when one is given.
    ///
    /// ```swift
    /// let saved = try await client.replace(
    ///     id: note.id, content: "Call Bob at 10", date: note.date, ifMatch: note.etag)
    /// ```
    /// A mismatch fails with `.rest(.editConflict(_, current:))`, carrying the note as it now is.
    public func replace(id: Int, content: String, date: NoteDate, ifMatch: String? = nil)
        async throws(NotesClientError) -> VersionedNote
    {
        try await engine.run(
            replaceOperation(id: id, content: content, date: date, ifMatch: ifMatch))
    }

    /// Changes a note's content, date or both (`PATCH`), only if it still has the ETag
    /// `ifMatch` when one is given.
    ///
    /// ```swift
    /// let saved = try await client.update(id: note.id, content: "Buy oat milk", ifMatch: note.etag)
    /// ```
    public func update(
        id: Int, content: String? = nil, date: NoteDate? = nil, ifMatch: String? = nil
    ) async throws(NotesClientError) -> VersionedNote {
        try await engine.run(
            updateOperation(id: id, content: content, date: date, ifMatch: ifMatch))
    }

    /// Deletes a note (`DELETE`), only if it still has the ETag `ifMatch` when one is given.
    ///
    /// ```swift
    /// try await client.delete(id: note.id, ifMatch: note.etag)
    /// ```
    public func delete(id: Int, ifMatch: String? = nil) async throws(NotesClientError) {
        try await engine.run(deleteOperation(id: id, ifMatch: ifMatch))
    }
}

/// The pages of a listing as an `AsyncSequence`: each iteration fetches the next page,
/// so a loop that stops early fetches no more. See ``NotesAPIClient/pages(matching:pageSize:)``.
public struct NotePages: AsyncSequence, Sendable {
    /// A page of notes.
    public typealias Element = NotePage
    /// The one error type of MyNotesKit.
    public typealias Failure = NotesClientError

    let client: NotesAPIClient
    let query: String?
    let pageSize: Int?

    /// The iterator that fetches the pages.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: self)
    }

    /// Fetches one page per call to `next()`, and `nil` after the last.
    public struct Iterator: AsyncIteratorProtocol {
        let pages: NotePages
        var cursor: String?
        var finished = false

        init(pages: NotePages) {
            self.pages = pages
        }

        /// The next page, or `nil` after the last.
        public mutating func next() async throws(NotesClientError) -> NotePage? {
            try await next(isolation: nil)
        }

        /// The next page, or `nil` after the last.
        public mutating func next(isolation actor: isolated (any Actor)?)
            async throws(NotesClientError) -> NotePage?
        {
            guard !finished else { return nil }
            let page = try await Self.fetch(pages, after: cursor)
            if page.nextCursor == nil || page.nextCursor == cursor { finished = true }
            cursor = page.nextCursor
            return page
        }

        private static func fetch(_ pages: NotePages, after cursor: String?)
            async throws(NotesClientError) -> NotePage
        {
            try await pages.client.notes(
                limit: pages.pageSize, cursor: cursor, matching: pages.query)
        }
    }
}
