/// Which note of a ``NotesReplica``: one the server knows by its ID, or one added here and
/// not pushed yet, known by a local number until the next sync gives it a server ID.
///
/// Its text is the server's ID (`12`), or `new-` and the local number (`new-3`):
///
/// ```swift
/// let id = ReplicaNoteID("new-3")   // .local(3)
/// print(ReplicaNoteID.server(12))   // 12
/// ```
public enum ReplicaNoteID: Sendable, Hashable, Codable, LosslessStringConvertible {
    /// A note the server has, by its ID.
    case server(Int)
    /// A note added in the replica and not pushed yet.
    case local(Int)

    /// Reads `12` or `new-3`; `nil` for anything else.
    public init?(_ text: String) {
        let digits = text.hasPrefix("new-") ? text.dropFirst(4) : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let number = Int(digits), number > 0
        else { return nil }
        self = text.hasPrefix("new-") ? .local(number) : .server(number)
    }

    public var description: String {
        switch self {
        case .server(let id): return String(id)
        case .local(let number): return "new-\(number)"
        }
    }

    /// The server's ID, once the note has one.
    public var serverID: Int? {
        if case .server(let id) = self { return id }
        return nil
    }

    /// Decodes the ID from its text.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = ReplicaNoteID(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a note ID: \(text)"))
        }
        self = id
    }

    /// Encodes the ID as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
