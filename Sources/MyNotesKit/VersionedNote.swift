import Foundation

/// A note as the REST API returns it: the ``Note``, when the server created and last
/// changed it, and, from the calls that return one note, its `ETag`.
///
/// Pass `etag` back as `ifMatch` to write only if nobody changed the note meanwhile:
///
/// ```swift
/// let note = try await api.note(id: 12)
/// let saved = try await api.update(id: 12, content: "Buy oat milk", ifMatch: note.etag)
/// print(saved.updatedAt, saved.etag ?? "")
/// ```
public struct VersionedNote: Sendable, Hashable, Identifiable {
    /// The note: ID, date and content.
    public let note: Note
    /// When the server created the note.
    public let createdAt: Date
    /// When the server last changed the note.
    public let updatedAt: Date
    /// The strong validator of this state of the note; `nil` in listings, which carry none.
    public let etag: String?

    /// Creates a value, e.g. to compare with what the server returned.
    public init(note: Note, createdAt: Date, updatedAt: Date, etag: String? = nil) {
        self.note = note
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.etag = etag
    }

    /// The note's ID.
    public var id: Int { note.id }
    /// The note's date.
    public var date: NoteDate { note.date }
    /// The note's text.
    public var content: String { note.content }
}

/// One page of `GET /api/v1/notes`, newest first.
///
/// ```swift
/// var page = try await api.notes(limit: 20)
/// while let cursor = page.nextCursor {
///     page = try await api.notes(limit: 20, cursor: cursor)
/// }
/// ```
public struct NotePage: Sendable, Hashable {
    /// The notes of this page (without ETags).
    public let notes: [VersionedNote]
    /// The cursor of the next page; `nil` on the last page.
    public let nextCursor: String?

    /// Creates a page value.
    public init(notes: [VersionedNote], nextCursor: String?) {
        self.notes = notes
        self.nextCursor = nextCursor
    }
}

/// A signed-in account: its email and the access token the server issued.
///
/// ```swift
/// let session = try await api.signIn(email: "ann@example.com", password: password)
/// let signedIn = api.authenticated(session.token)
/// ```
public struct Session: Sendable, Hashable {
    /// The account's email, as the server keeps it.
    public let email: String
    /// The access token; it also works with the legacy protocol.
    public let token: String

    /// Creates a session value.
    public init(email: String, token: String) {
        self.email = email
        self.token = token
    }
}
