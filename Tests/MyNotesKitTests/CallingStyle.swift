import Foundation
import MyNotesKit
import Testing

/// The SDK's three calling styles behind one async interface, so each test runs
/// unchanged through every style.
enum CallingStyle: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case async, callback, blocking

    var testDescription: String { rawValue }

    static let queue = DispatchQueue(label: "MyNotesKitTests.callbacks")

    func query(_ client: NotesClient) async throws(NotesClientError) -> [Note] {
        switch self {
        case .async: return try await client.query()
        case .callback: return try await callback { client.query(on: Self.queue, completion: $0) }
        case .blocking:
            return try await thread { () throws(NotesClientError) in try client.blocking.query() }
        }
    }

    func add(_ client: NotesClient, _ content: String, date: NoteDate)
        async throws(NotesClientError) -> Note
    {
        switch self {
        case .async: return try await client.add(content, date: date)
        case .callback:
            return try await callback {
                client.add(content, date: date, on: Self.queue, completion: $0)
            }
        case .blocking:
            return try await thread { () throws(NotesClientError) in
                try client.blocking.add(content, date: date)
            }
        }
    }

    func modify(_ client: NotesClient, id: Int, content: String, date: NoteDate)
        async throws(NotesClientError)
    {
        switch self {
        case .async: try await client.modify(id: id, content: content, date: date)
        case .callback:
            try await callback {
                client.modify(id: id, content: content, date: date, on: Self.queue, completion: $0)
            }
        case .blocking:
            try await thread { () throws(NotesClientError) in
                try client.blocking.modify(id: id, content: content, date: date)
            }
        }
    }

    func remove(_ client: NotesClient, id: Int) async throws(NotesClientError) {
        switch self {
        case .async: try await client.remove(id: id)
        case .callback: try await callback { client.remove(id: id, on: Self.queue, completion: $0) }
        case .blocking:
            try await thread { () throws(NotesClientError) in try client.blocking.remove(id: id) }
        }
    }

    /// Runs one call in this style; each argument is the same call in one style.
    func run<Value: Sendable>(
        _ async: () async throws(NotesClientError) -> Value,
        _ callback: (@escaping @Sendable (Result<Value, NotesClientError>) -> Void) -> NotesRequest,
        _ blocking: @escaping @Sendable () throws(NotesClientError) -> Value
    ) async throws(NotesClientError) -> Value {
        switch self {
        case .async: return try await async()
        case .callback: return try await self.callback(callback)
        case .blocking: return try await thread(blocking)
        }
    }

    private func callback<Value: Sendable>(
        _ start: (@escaping @Sendable (Result<Value, NotesClientError>) -> Void) -> NotesRequest
    ) async throws(NotesClientError) -> Value {
        let result = await withCheckedContinuation { continuation in
            _ = start { result in
                dispatchPrecondition(condition: .onQueue(Self.queue))
                continuation.resume(returning: result)
            }
        }
        return try result.get()
    }

    private func thread<Value: Sendable>(
        _ body: @escaping @Sendable () throws(NotesClientError) -> Value
    ) async throws(NotesClientError) -> Value {
        // A thread of its own, as an app's background thread would be: a blocked
        // Dispatch worker could starve the queues URLSession calls back on.
        let result = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: Result { () throws(NotesClientError) in try body() })
            }.start()
        }
        return try result.get()
    }
}
