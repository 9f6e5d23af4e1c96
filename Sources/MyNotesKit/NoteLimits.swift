/// What a MyNotes server accepts, known to the client so that it can say so before
/// sending rather than relay a bare refusal.
///
/// ```swift
/// if note.utf8.count > NoteLimits.contentBytes { print("too long for the server") }
/// ```
public enum NoteLimits {
    /// The longest note content, in UTF-8 bytes: longer is ResultCode -8 (legacy) or
    /// 422 (REST).
    public static let contentBytes = 65_536
    /// The longest request line (method, URL with its query, version): longer is HTTP
    /// 414, which limits what a legacy `GET` can carry.
    public static let requestLineBytes = 65_536
    /// The largest request body a server takes by default (`--max-body`): larger is 413.
    public static let bodyBytes = 1_048_576
}
