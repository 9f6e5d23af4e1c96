/// A position in an account's change feed, as the server hands it out: where the next
/// ``NotesAPIClient/changes(since:limit:)`` call or ``NotesAPIClient/changeStream(since:)``
/// resumes.
///
/// Opaque on purpose: keep it (it is `Codable`) and give it back, never read meaning
/// into its text, which the server may change.
///
/// ```swift
/// let page = try await client.changes(since: saved)
/// saved = page.cursor          // persisted with the app's copy of the notes
/// ```
public struct ChangeCursor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The cursor's text, as the server wrote it.
    public let rawValue: String

    /// A cursor from text the server wrote earlier (e.g. one saved as a string).
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Decodes a cursor from its text.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the cursor as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
