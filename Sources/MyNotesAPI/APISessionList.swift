/// The answer to `GET /api/v1/sessions`: `{"sessions":[…]}`, oldest first.
public struct APISessionList: Codable, Sendable, Hashable {
    public var sessions: [APISessionInfo]

    public init(sessions: [APISessionInfo]) {
        self.sessions = sessions
    }
}
