import Storage

/// What the MyNotes service enforces, whatever the transport.
public struct ServiceConfiguration: Sendable {
    public var authentication: AuthenticationMode
    public var quota: NoteQuota

    public init(authentication: AuthenticationMode = .token, quota: NoteQuota = .unlimited) {
        self.authentication = authentication
        self.quota = quota
    }
}
