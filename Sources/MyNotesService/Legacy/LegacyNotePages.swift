import Storage

/// A query's notes read page by page (keyset pages over the account's newest-first
/// index), so that a large account is never held whole.
enum LegacyNotePages {
    /// Notes per read: a note is at most 64 KiB, so a page holds at most 8 MiB.
    static let pageSize = 128
}
