import Foundation
import MyNotesProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client of a MyNotes server's legacy `webservice.php` protocol.
///
/// One client per server and account; it is `Sendable` and its calls may run
/// concurrently. Each call comes in three styles that behave the same:
///
/// ```swift
/// let client = NotesClient(
///     server: URL(string: "https://notes.example.com")!,
///     credentials: .token(email: "ann@example.com", token: token))
///
/// // async/await, the main style
/// let notes = try await client.query()
///
/// // completion handler, called on the queue you choose
/// let request = client.add("Buy milk", on: .main) { result in print(result) }
/// request.cancel()
///
/// // blocking, for scripts and command-line tools; never on a UI thread
/// try client.blocking.remove(id: 12)
/// ```
///
/// Every failure is a ``NotesClientError``. `query` is retried on transient
/// failures by ``Configuration/retry``; `add`, `modify` and `remove` never are.
public final class NotesClient: Sendable {
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

    /// Creates a client with the default configuration for a server and an account.
    public convenience init(server: URL, credentials: Credentials) {
        self.init(Configuration(server: server, credentials: credentials))
    }

    /// All notes of the account, newest first.
    ///
    /// ```swift
    /// let notes = try await client.query()
    /// ```
    public func query() async throws(NotesClientError) -> [Note] {
        try await engine.run(queryOperation())
    }

    /// Adds a note and returns it with the ID the server gave it.
    ///
    /// ```swift
    /// let note = try await client.add("Call Bob", date: NoteDate("2026-12-01 09:00")!)
    /// ```
    public func add(_ content: String, date: NoteDate = .now) async throws(NotesClientError) -> Note
    {
        try await engine.run(addOperation(content, date: date))
    }

    /// Replaces a note's content and date.
    ///
    /// ```swift
    /// try await client.modify(id: note.id, content: "Call Bob at 10", date: note.date)
    /// ```
    public func modify(id: Int, content: String, date: NoteDate) async throws(NotesClientError) {
        try await engine.run(modifyOperation(id: id, content: content, date: date))
    }

    /// Removes a note.
    ///
    /// ```swift
    /// try await client.remove(id: note.id)
    /// ```
    public func remove(id: Int) async throws(NotesClientError) {
        try await engine.run(removeOperation(id: id))
    }
}
