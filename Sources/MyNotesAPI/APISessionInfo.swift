/// One live session or access key of the account, as `GET /api/v1/sessions` lists them.
public struct APISessionInfo: Codable, Sendable, Hashable {
    /// What `DELETE /api/v1/sessions/{id}` takes.
    public var id: String
    /// `session` (signed in with a password) or `accessKey`.
    public var kind: String
    /// RFC 3339 with milliseconds, in UTC.
    public var createdAt: String
    public var lastUsedAt: String
    /// `null` (always written) for a token that does not expire.
    public var expiresAt: String?
    /// Whether it is the token the request used.
    public var current: Bool

    public init(
        id: String, kind: String, createdAt: String, lastUsedAt: String, expiresAt: String?,
        current: Bool
    ) {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.current = current
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case kind
        case createdAt
        case lastUsedAt
        case expiresAt
        case current
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        kind = try container.decode(String.self, forKey: .kind)
        createdAt = try container.decode(String.self, forKey: .createdAt)
        lastUsedAt = try container.decode(String.self, forKey: .lastUsedAt)
        expiresAt = try container.decodeIfPresent(String.self, forKey: .expiresAt)
        current = try container.decode(Bool.self, forKey: .current)
    }

    /// `expiresAt` as `null` rather than left out: the member is always there.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(current, forKey: .current)
    }
}
