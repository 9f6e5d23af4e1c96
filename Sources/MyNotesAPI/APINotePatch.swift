/// The body of `PATCH /api/v1/notes/{id}`: the members to change, either or both.
public struct APINotePatch: Codable, Sendable, Hashable {
    public var content: String?
    public var date: String?

    public init(content: String? = nil, date: String? = nil) {
        self.content = content
        self.date = date
    }

    private enum CodingKeys: String, CodingKey {
        case content
        case date
    }

    /// A member may be left out but not be `null` (see ``APINewNote/init(from:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        content = try container.decodePresent(String.self, forKey: .content)
        date = try container.decodePresent(String.self, forKey: .date)
    }
}
