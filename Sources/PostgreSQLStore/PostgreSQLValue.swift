import MyNotesDomain

/// A value bound to a statement parameter. Text and integers travel in PostgreSQL's text
/// format, bytes in its binary format (no escaping).
enum PostgreSQLValue: Sendable {
    case integer(Int64)
    case text(String)
    case bytes([UInt8])
    /// `{1,2,3}`, for a `$n::bigint[]` parameter.
    case integers([Int64])
    /// `{"a","b"}`, for a `$n::text[]` parameter.
    case texts([String])
    case null
}
