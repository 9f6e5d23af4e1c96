import Foundation
import MyNotesKit

/// A client of either API used through the calling style chosen by `--style`, so that
/// each style of both SDK clients is exercised end to end by the same commands.
struct StyledNotesClient: Sendable {
    enum Backend: Sendable {
        case legacy(NotesClient)
        /// The REST client, and the account's email when known (for `Notes.xml`).
        case rest(NotesAPIClient, email: String)
    }

    let backend: Backend
    let style: ClientStyle

    /// The account's email ("" when a REST command was not told it).
    var email: String {
        switch backend {
        case .legacy(let client): return client.configuration.credentials.email
        case .rest(_, let email): return email
        }
    }

    /// The server as the user gave it, for messages.
    var server: URL {
        switch backend {
        case .legacy(let client): return client.configuration.server
        case .rest(let client, _): return client.configuration.server
        }
    }

    /// Where the notes live, naming the server and the API (the import journal's key).
    var endpoint: String {
        switch backend {
        case .legacy(let client): return client.configuration.endpoint.absoluteString
        case .rest(let client, _): return client.configuration.baseURL.absoluteString
        }
    }

    /// All notes, newest first: the legacy `query`, or every page over REST.
    func query() async throws(NotesClientError) -> [Note] {
        switch backend {
        case .legacy(let client):
            return try await styled(
                { () async throws(NotesClientError) in try await client.query() },
                { queue, done in client.query(on: queue, completion: done) },
                { () throws(NotesClientError) in try client.blocking.query() })
        case .rest(let client, _):
            return try await allNotes(client, matching: nil)
        }
    }

    /// The newest `limit` notes: over REST only the pages needed; the legacy protocol
    /// has no pages, so its whole answer is cut.
    func query(limit: Int) async throws(NotesClientError) -> [Note] {
        guard case .rest(let client, _) = backend else {
            return Array(try await query().prefix(limit))
        }
        var notes: [Note] = []
        var cursor: String?
        repeat {
            let size = min(200, limit - notes.count)
            let after = cursor
            let page = try await styled(
                { () async throws(NotesClientError) in
                    try await client.notes(limit: size, cursor: after)
                },
                { queue, done in
                    client.notes(limit: size, cursor: after, on: queue, completion: done)
                },
                { () throws(NotesClientError) in
                    try client.blocking.notes(limit: size, cursor: after)
                })
            notes += page.notes.map(\.note)
            cursor = page.nextCursor
        } while cursor != nil && notes.count < limit
        return notes
    }

    /// The notes that contain every word, ignoring case. Over REST the server searches
    /// (`q`) for the longest word and the other words are checked here.
    func search(_ words: [String]) async throws(NotesClientError) -> [Note] {
        let notes: [Note]
        switch backend {
        case .legacy:
            notes = try await query()
        case .rest(let client, _):
            let longest = words.max { $0.count < $1.count }
            notes = try await allNotes(client, matching: longest)
        }
        return notes.filter { NoteSearch.matches($0.content, allOf: words) }
    }

    /// One note: found in the legacy `query`, or read by ID over REST.
    func note(id: Int) async throws(NotesClientError) -> Note {
        switch backend {
        case .legacy:
            guard let note = try await query().first(where: { $0.id == id }) else {
                throw .server(.noSuchNote, serverMessage: nil)
            }
            return note
        case .rest(let client, _):
            return try await styled(
                { () async throws(NotesClientError) in try await client.note(id: id) },
                { queue, done in client.note(id: id, on: queue, completion: done) },
                { () throws(NotesClientError) in try client.blocking.note(id: id) }
            ).note
        }
    }

    func add(_ content: String, date: NoteDate) async throws(NotesClientError) -> Note {
        switch backend {
        case .legacy(let client):
            return try await styled(
                { () async throws(NotesClientError) in try await client.add(content, date: date) },
                { queue, done in client.add(content, date: date, on: queue, completion: done) },
                { () throws(NotesClientError) in try client.blocking.add(content, date: date) })
        case .rest(let client, _):
            return try await styled(
                { () async throws(NotesClientError) in
                    try await client.create(content, date: date)
                },
                { queue, done in client.create(content, date: date, on: queue, completion: done) },
                { () throws(NotesClientError) in try client.blocking.create(content, date: date) }
            ).note
        }
    }

    /// Changes a note's text, its date, or both: the legacy protocol reads the note for
    /// what is kept first; REST sends just the fields given (PATCH).
    func edit(id: Int, content newContent: String?, date: NoteDate?) async throws(NotesClientError)
    {
        switch backend {
        case .legacy(let client):
            let newDate: NoteDate
            let content: String
            if let date, let newContent {
                (newDate, content) = (date, newContent)
            } else {
                let current = try await note(id: id)
                (newDate, content) = (date ?? current.date, newContent ?? current.content)
            }
            try await styled(
                { () async throws(NotesClientError) in
                    try await client.modify(id: id, content: content, date: newDate)
                },
                { queue, done in
                    client.modify(
                        id: id, content: content, date: newDate, on: queue, completion: done)
                },
                { () throws(NotesClientError) in
                    try client.blocking.modify(id: id, content: content, date: newDate)
                })
        case .rest(let client, _):
            _ = try await styled(
                { () async throws(NotesClientError) in
                    try await client.update(id: id, content: newContent, date: date)
                },
                { queue, done in
                    client.update(
                        id: id, content: newContent, date: date, on: queue, completion: done)
                },
                { () throws(NotesClientError) in
                    try client.blocking.update(id: id, content: newContent, date: date)
                })
        }
    }

    func remove(id: Int) async throws(NotesClientError) {
        switch backend {
        case .legacy(let client):
            try await styled(
                { () async throws(NotesClientError) in try await client.remove(id: id) },
                { queue, done in client.remove(id: id, on: queue, completion: done) },
                { () throws(NotesClientError) in try client.blocking.remove(id: id) })
        case .rest(let client, _):
            try await styled(
                { () async throws(NotesClientError) in try await client.delete(id: id) },
                { queue, done in client.delete(id: id, on: queue, completion: done) },
                { () throws(NotesClientError) in try client.blocking.delete(id: id) })
        }
    }

    /// Every page (of the notes matching `query`), in as few requests as the API allows.
    private func allNotes(_ client: NotesAPIClient, matching query: String?)
        async throws(NotesClientError) -> [Note]
    {
        let pageSize = 200
        return try await styled(
            { () async throws(NotesClientError) in
                try await client.allNotes(matching: query, pageSize: pageSize)
            },
            { queue, done in
                client.allNotes(matching: query, pageSize: pageSize, on: queue, completion: done)
            },
            { () throws(NotesClientError) in
                try client.blocking.allNotes(matching: query, pageSize: pageSize)
            }
        ).map(\.note)
    }

    // MARK: - The three styles

    private static let callbackQueue = DispatchQueue(label: "mynotes.callbacks")

    /// Runs one call in the chosen style; each argument is the same call in one style.
    func styled<Value: Sendable>(
        _ async: () async throws(NotesClientError) -> Value,
        _ callback: (DispatchQueue, @escaping @Sendable (Result<Value, NotesClientError>) -> Void)
            -> NotesRequest,
        _ blocking: @escaping @Sendable () throws(NotesClientError) -> Value
    ) async throws(NotesClientError) -> Value {
        switch style {
        case .async:
            return try await async()
        case .callback:
            let result = await withCheckedContinuation { continuation in
                _ = callback(Self.callbackQueue) { continuation.resume(returning: $0) }
            }
            return try result.get()
        case .sync:
            // A thread, not a Dispatch worker: blocked workers could starve the queues
            // URLSession and the SDK's timers run on.
            let result = await withCheckedContinuation { continuation in
                Thread {
                    continuation.resume(
                        returning: Result { () throws(NotesClientError) in try blocking() })
                }.start()
            }
            return try result.get()
        }
    }
}
