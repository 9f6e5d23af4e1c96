/// What a database's committed state was at one moment, taken before a read: later,
/// ``NoteStore/isUnchanged(account:since:now:)`` tells whether what that read found of one
/// account is still what the store holds, whatever was committed to other accounts since.
/// A cache keeps the stamp taken before it read, and serves its copy only while the store
/// says so.
///
/// ```swift
/// let before = store.changeStamp()
/// let notes = try await store.notes(account: id, page: NotePage(limit: 20))
/// // later: the copy is current while
/// // store.changeStamp().map { store.isUnchanged(account: id, since: before!, now: $0) }
/// ```
public struct StoreChangeStamp: Sendable, Hashable {
    // SQLite's WAL-index header, 48 bytes in six words: its change counter, frame count,
    // salts and checksums move with every commit, from any process.
    package let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    /// How many of its own commits the store had published (``SQLiteChangeWatch``).
    package let sequence: UInt64
    /// Whether the header was that of the store's own last published commit: then every
    /// commit up to it is accounted for account by account.
    package let settled: Bool

    package init(
        words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64), sequence: UInt64 = 0,
        settled: Bool = false
    ) {
        self.words = words
        self.sequence = sequence
        self.settled = settled
    }

    /// Whether this stamp was taken no earlier than `other`, as far as the store's own
    /// commits tell: of two answers, keep the one read after the later stamp.
    public func isAsRecent(as other: StoreChangeStamp) -> Bool {
        sequence >= other.sequence
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.words == rhs.words && lhs.sequence == rhs.sequence && lhs.settled == rhs.settled
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.2)
        hasher.combine(words.4)
        hasher.combine(sequence)
    }
}
