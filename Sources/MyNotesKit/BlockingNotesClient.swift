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
        try wait(client.queryOperation())
    }

    /// Adds a note and returns it with the ID the server gave it.
    public func add(_ content: String, date: NoteDate = .now) throws(NotesClientError) -> Note {
        try wait(client.addOperation(content, date: date))
    }

    /// Replaces a note's content and date.
    public func modify(id: Int, content: String, date: NoteDate) throws(NotesClientError) {
        try wait(client.modifyOperation(id: id, content: content, date: date))
    }

    /// Removes a note.
    public func remove(id: Int) throws(NotesClientError) {
        try wait(client.removeOperation(id: id))
    }

    private func wait<Value: Sendable>(_ operation: NotesOperation<Value>) throws(NotesClientError)
        -> Value
    {
        let box = ResultBox<Value>()
        let semaphore = DispatchSemaphore(value: 0)
        client.perform(operation, handle: NotesRequest()) { result in
            box.set(result)
            semaphore.signal()
        }
        semaphore.wait()
        return try box.get().get()
    }
}

extension NotesClient {
    /// The same calls, blocking the calling thread until the answer; never on a UI thread.
    public var blocking: BlockingNotesClient { BlockingNotesClient(client: self) }
}

/// Carries a result from URLSession's queue to the waiting thread.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, NotesClientError>?

    func set(_ result: Result<Value, NotesClientError>) {
        lock.withLock { self.result = result }
    }

    func get() -> Result<Value, NotesClientError> {
        lock.withLock { result! }
    }
}
