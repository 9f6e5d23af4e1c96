import Foundation
import MyNotesKit

/// ``NotesAPIClient``'s calls in each of its three styles, so each test runs unchanged
/// through every style.
extension CallingStyle {
    func signUp(_ api: NotesAPIClient, _ email: String, _ password: String)
        async throws(NotesClientError) -> Session
    {
        try await run(
            { () async throws(NotesClientError) in
                try await api.signUp(email: email, password: password)
            },
            { api.signUp(email: email, password: password, on: Self.queue, completion: $0) },
            { () throws(NotesClientError) in
                try api.blocking.signUp(email: email, password: password)
            })
    }

    func signIn(_ api: NotesAPIClient, _ email: String, _ password: String)
        async throws(NotesClientError) -> Session
    {
        try await run(
            { () async throws(NotesClientError) in
                try await api.signIn(email: email, password: password)
            },
            { api.signIn(email: email, password: password, on: Self.queue, completion: $0) },
            { () throws(NotesClientError) in
                try api.blocking.signIn(email: email, password: password)
            })
    }

    func signOut(_ api: NotesAPIClient) async throws(NotesClientError) {
        try await run(
            { () async throws(NotesClientError) in try await api.signOut() },
            { api.signOut(on: Self.queue, completion: $0) },
            { () throws(NotesClientError) in try api.blocking.signOut() })
    }

    func notes(_ api: NotesAPIClient, limit: Int? = nil, cursor: String? = nil, q: String? = nil)
        async throws(NotesClientError) -> NotePage
    {
        try await run(
            { () async throws(NotesClientError) in
                try await api.notes(limit: limit, cursor: cursor, matching: q)
            },
            {
                api.notes(limit: limit, cursor: cursor, matching: q, on: Self.queue, completion: $0)
            },
            { () throws(NotesClientError) in
                try api.blocking.notes(limit: limit, cursor: cursor, matching: q)
            })
    }

    func allNotes(_ api: NotesAPIClient, q: String? = nil, pageSize: Int? = nil)
        async throws(NotesClientError) -> [VersionedNote]
    {
        try await run(
            { () async throws(NotesClientError) in
                try await api.allNotes(matching: q, pageSize: pageSize)
            },
            { api.allNotes(matching: q, pageSize: pageSize, on: Self.queue, completion: $0) },
            { () throws(NotesClientError) in
                try api.blocking.allNotes(matching: q, pageSize: pageSize)
            })
    }

    func note(_ api: NotesAPIClient, id: Int) async throws(NotesClientError) -> VersionedNote {
        try await run(
            { () async throws(NotesClientError) in try await api.note(id: id) },
            { api.note(id: id, on: Self.queue, completion: $0) },
            { () throws(NotesClientError) in try api.blocking.note(id: id) })
    }

    func create(_ api: NotesAPIClient, _ content: String, date: NoteDate? = nil)
        async throws(NotesClientError) -> VersionedNote
    {
        try await run(
            { () async throws(NotesClientError) in try await api.create(content, date: date) },
            { api.create(content, date: date, on: Self.queue, completion: $0) },
            { () throws(NotesClientError) in try api.blocking.create(content, date: date) })
    }

    func replace(
        _ api: NotesAPIClient, id: Int, content: String, date: NoteDate, ifMatch: String? = nil
    ) async throws(NotesClientError) -> VersionedNote {
        try await run(
            { () async throws(NotesClientError) in
                try await api.replace(id: id, content: content, date: date, ifMatch: ifMatch)
            },
            {
                api.replace(
                    id: id, content: content, date: date, ifMatch: ifMatch, on: Self.queue,
                    completion: $0)
            },
            { () throws(NotesClientError) in
                try api.blocking.replace(id: id, content: content, date: date, ifMatch: ifMatch)
            })
    }

    func update(
        _ api: NotesAPIClient, id: Int, content: String? = nil, date: NoteDate? = nil,
        ifMatch: String? = nil
    ) async throws(NotesClientError) -> VersionedNote {
        try await run(
            { () async throws(NotesClientError) in
                try await api.update(id: id, content: content, date: date, ifMatch: ifMatch)
            },
            {
                api.update(
                    id: id, content: content, date: date, ifMatch: ifMatch, on: Self.queue,
                    completion: $0)
            },
            { () throws(NotesClientError) in
                try api.blocking.update(id: id, content: content, date: date, ifMatch: ifMatch)
            })
    }

    func delete(_ api: NotesAPIClient, id: Int, ifMatch: String? = nil)
        async throws(NotesClientError)
    {
        try await run(
            { () async throws(NotesClientError) in try await api.delete(id: id, ifMatch: ifMatch) },
            { api.delete(id: id, ifMatch: ifMatch, on: Self.queue, completion: $0) },
            { () throws(NotesClientError) in try api.blocking.delete(id: id, ifMatch: ifMatch) })
    }
}
