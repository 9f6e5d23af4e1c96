/// Which notes of an account to read: at most `limit`, newest first, strictly after
/// `after` when given, and only those whose content contains `containing` when given.
///
/// `containing` is matched case-insensitively by ``TextFolding``: both sides are
/// folded, then compared as a plain substring.
///
/// ```swift
/// NotePage(after: nil, limit: 50, containing: "milk")
/// ```
public struct NotePage: Sendable, Hashable {
    public var after: NotePosition?
    public var limit: Int
    public var containing: String?

    public init(after: NotePosition? = nil, limit: Int, containing: String? = nil) {
        self.after = after
        self.limit = limit
        self.containing = containing
    }
}
