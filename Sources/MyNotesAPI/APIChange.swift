/// One change of the feed, as `GET /api/v1/changes` pages and the stream's `data:` lines
/// carry it: `{"cursor":"17","type":"updated","id":12,"version":3,"note":{…}}`.
public struct APIChange: Codable, Sendable, Hashable {
    /// Where the feed stands after this change (decimal digits, as text).
    public var cursor: String
    /// `created`, `updated` or `deleted`; text, so that a client can name a type it does
    /// not know in its error rather than fail inside the decoder.
    public var type: String
    public var id: Int64
    public var version: Int64
    /// The note as it is after the change; `null` (always written) for a deleted note.
    public var note: APINote?

    public init(cursor: String, type: String, id: Int64, version: Int64, note: APINote?) {
        self.cursor = cursor
        self.type = type
        self.id = id
        self.version = version
        self.note = note
    }

    private enum CodingKeys: String, CodingKey {
        case cursor
        case type
        case id
        case version
        case note
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cursor = try container.decode(String.self, forKey: .cursor)
        type = try container.decode(String.self, forKey: .type)
        id = try container.decode(Int64.self, forKey: .id)
        version = try container.decode(Int64.self, forKey: .version)
        note = try container.decodeIfPresent(APINote.self, forKey: .note)
    }

    /// `note` as `null` rather than left out: the member is always there.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cursor, forKey: .cursor)
        try container.encode(type, forKey: .type)
        try container.encode(id, forKey: .id)
        try container.encode(version, forKey: .version)
        try container.encode(note, forKey: .note)
    }
}
