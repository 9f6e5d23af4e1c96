/// The body of `PUT /api/v1/notes/{id}`: both members, the note as it is to be.
public struct APINoteReplacement: Codable, Sendable, Hashable {
    public var content: String
    public var date: String

    public init(content: String, date: String) {
        self.content = content
        self.date = date
    }
}
