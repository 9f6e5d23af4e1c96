/// What a database's committed state was at one moment: two equal stamps mean that no
/// write committed in between, from this process or any other. A cache keeps the stamp
/// taken before it read, and serves its copy only while the store's current stamp is
/// still equal to it.
///
/// ```swift
/// let before = store.changeStamp()
/// let notes = try await store.notes(account: id, page: NotePage(limit: 20))
/// // later: the copy is current while store.changeStamp() == before
/// ```
public struct StoreChangeStamp: Sendable, Hashable {
    // SQLite's WAL-index header, 48 bytes in six words: its change counter, frame count,
    // salts and checksums move with every commit.
    let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    init(words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) {
        self.words = words
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.words == rhs.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.2)
        hasher.combine(words.4)
    }
}
