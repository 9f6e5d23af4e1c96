import Foundation
import MyNotesKit

/// A ``NotesClient`` used through the calling style chosen by `--style`, so that each
/// style is exercised end to end by the same commands.
struct StyledNotesClient: Sendable {
    let client: NotesClient
    let style: ClientStyle

    var configuration: NotesClient.Configuration { client.configuration }

    func query() async throws(NotesClientError) -> [Note] {
        switch style {
        case .async: return try await client.query()
        case .callback:
            return try await callback { queue, done in client.query(on: queue, completion: done) }
        case .sync:
            return try await blocking { () throws(NotesClientError) in try client.blocking.query() }
        }
    }

    func add(_ content: String, date: NoteDate) async throws(NotesClientError) -> Note {
        switch style {
        case .async: return try await client.add(content, date: date)
        case .callback:
            return try await callback { queue, done in
                client.add(content, date: date, on: queue, completion: done)
            }
        case .sync:
            return try await blocking { () throws(NotesClientError) in
                try client.blocking.add(content, date: date)
            }
        }
    }

    func modify(id: Int, content: String, date: NoteDate) async throws(NotesClientError) {
        switch style {
        case .async: try await client.modify(id: id, content: content, date: date)
        case .callback:
            try await callback { queue, done in
                client.modify(id: id, content: content, date: date, on: queue, completion: done)
            }
        case .sync:
            try await blocking { () throws(NotesClientError) in
                try client.blocking.modify(id: id, content: content, date: date)
            }
        }
    }

    func remove(id: Int) async throws(NotesClientError) {
        switch style {
        case .async: try await client.remove(id: id)
        case .callback:
            try await callback { queue, done in client.remove(id: id, on: queue, completion: done) }
        case .sync:
            try await blocking { () throws(NotesClientError) in try client.blocking.remove(id: id) }
        }
    }

    private static let callbackQueue = DispatchQueue(label: "mynotes.callbacks")

    private func callback<Value: Sendable>(
        _ start: (DispatchQueue, @escaping @Sendable (Result<Value, NotesClientError>) -> Void) ->
            NotesRequest
    ) async throws(NotesClientError) -> Value {
        let result = await withCheckedContinuation { continuation in
            _ = start(Self.callbackQueue) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Runs a blocking call on a thread of its own, off Swift's small cooperative pool.
    private func blocking<Value: Sendable>(
        _ body: @escaping @Sendable () throws(NotesClientError) -> Value
    ) async throws(NotesClientError) -> Value {
        // A thread, not a Dispatch worker: blocked workers could starve the queues
        // URLSession and the SDK's timers run on.
        let result = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: Result { () throws(NotesClientError) in try body() })
            }.start()
        }
        return try result.get()
    }
}
