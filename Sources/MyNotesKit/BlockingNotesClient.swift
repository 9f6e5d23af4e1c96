import Foundation

/// The blocking style of ``NotesClient``: each call waits for the answer.
///
/// This is the seed app's `sendSynchronousRequest`, done safely, for command-line
/// tools, scripts and background threads. **Never call it on a UI thread**: the
/// interface freezes for as long as the network takes, up to the timeout (times the
/// attempts, for `query`).
///
/// ```swift
/// let notes = try client.blocking.query()
/// let note = try client.blocking.add("Buy milk")
/// ```
public struct BlockingNotesClient: Sendable {
    /// The client the calls go through.
    public let client: NotesClient

    /// All notes of the account, newest first.
    public func query() throws(NotesClientError) -> [Note] {
        try client.engine.wait(client.queryOperation())
    }

    /// Adds a note and returns it with the ID the server gave it.
    public func add(_ content: String, date: NoteDate = .now) throws(NotesClientError) -> Note {
        try client.engine.wait(client.addOperation(content, date: date))
    }

    /// Replaces a note's content and date.
    public func modify(id: Int, content: String, date: NoteDate) throws(NotesClientError) {
        try client.engine.wait(client.modifyOperation(id: id, content: content, date: date))
    }

    /// Removes a note.
    public func remove(id: Int) throws(NotesClientError) {
        try client.engine.wait(client.removeOperation(id: id))
    }
}

extension NotesClient {
    /// The same calls, blocking the calling thread until the answer; never on a UI thread.
    public var blocking: BlockingNotesClient { BlockingNotesClient(client: self) }
}
