/// A note as REST API v1 answers it (`GET /api/v1/notes/{id}`, a page's notes, a
/// change's note): `{"id":12,"date":"2026-11-29","content":"Buy milk","createdAt":"…",
/// "updatedAt":"…"}`. `snippet` is only in a search page asked with `snippet=true`.
public struct APINote: Codable, Sendable, Hashable {
    public var id: Int64
    /// `yyyy-MM-dd`, `yyyy-MM-dd HH:mm` or `yyyy-MM-dd HH:mm:ss`.
    public var date: String
    public var content: String
    /// RFC 3339 with milliseconds, in UTC.
    public var createdAt: String
    public var updatedAt: String
    /// Text around the search's first match; absent, not `null`, when there is none.
    public var snippet: String?

    public init(
        id: Int64, date: String, content: String, createdAt: String, updatedAt: String,
        snippet: String? = nil
    ) {
        self.id = id
        self.date = date
        self.content = content
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.snippet = snippet
    }
}
