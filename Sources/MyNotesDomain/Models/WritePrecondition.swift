/// The state a note must be in for a write to happen: HTTP's `If-Match` (RFC 9110
/// §13.1.1), checked inside the write's transaction.
///
/// ```swift
/// WritePrecondition.none          // no If-Match: write whatever the version
/// WritePrecondition.exists        // If-Match: *
/// WritePrecondition.matches([3])  // If-Match: "12.3"
/// ```
public enum WritePrecondition: Sendable, Hashable {
    /// Unconditional: a missing note is ``ConditionalWrite/notFound``, never a failed
    /// precondition.
    case none
    /// Any current version; a missing note fails the precondition.
    case exists
    /// One of these versions (empty: none can match). A missing note is
    /// ``ConditionalWrite/notFound``: answered as without the condition (RFC 9110 §13.2.1),
    /// so a note of another account looks exactly like no note.
    case matches(Set<Int64>)
}
