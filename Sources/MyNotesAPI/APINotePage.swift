/// A page of notes, `GET /api/v1/notes`: `{"notes":[…],"nextCursor":"…"}`, `nextCursor`
/// `null` on the last page.
public struct APINotePage: Codable, Sendable, Hashable {
    public var notes: [APINote]
    /// Always written, `null` when no page follows (clients test it, not its presence).
    public var nextCursor: String?

    public init(notes: [APINote], nextCursor: String?) {
        self.notes = notes
        self.nextCursor = nextCursor
    }

    private enum CodingKeys: String, CodingKey {
        case notes
        case nextCursor
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        notes = try container.decode([APINote].self, forKey: .notes)
        nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
    }

    /// `nextCursor` as `null` rather than left out: the member is always there.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notes, forKey: .notes)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}
