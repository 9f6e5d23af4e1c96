/// What a legacy request asks for: the protocol's `action` parameter.
///
/// ```swift
/// LegacyAction.query.rawValue  // "query", as sent in `action=query`
/// ```
public enum LegacyAction: String, Sendable, Hashable, CaseIterable {
    /// The account's notes, newest first.
    case query
    /// A new note (`date`, `content`); answers its `ID`.
    case add
    /// Replaces a note's `date` and `content` (`id`).
    case modify
    /// Removes a note (`id`).
    case remove
}
