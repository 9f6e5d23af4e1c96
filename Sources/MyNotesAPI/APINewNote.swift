/// The body of `POST /api/v1/notes`: `{"content":"Buy milk","date":"2026-11-29"}`, `date`
/// optional (now, in UTC, when left out).
public struct APINewNote: Codable, Sendable, Hashable {
    public var content: String
    public var date: String?

    public init(content: String, date: String? = nil) {
        self.content = content
        self.date = date
    }

    private enum CodingKeys: String, CodingKey {
        case content
        case date
    }

    /// An optional member may be left out but not be `null`: the API has no `null` in a
    /// request, so a `null` is refused as a value of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        content = try container.decode(String.self, forKey: .content)
        date = try container.decodePresent(String.self, forKey: .date)
    }
}
