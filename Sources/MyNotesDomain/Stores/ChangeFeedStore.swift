/// The change feed: every write to a note takes the next value of its account's sequence
/// in the write's own transaction, and the feed keeps each note's latest change.
public protocol ChangeFeedStore: Sendable {
    /// The account's changes after `cursor` (`nil`: from nothing, every live note as
    /// ``FeedChange/Kind/created`` and no tombstone), at most `limit`, oldest first; or
    /// ``FeedRead/expired`` when the feed can no longer answer for `cursor`.
    func changes(account: Int64, after cursor: Int64?, limit: Int) async throws(StoreError)
        -> FeedRead
    /// The account's position in its feed now: the sequence of its last change, 0 before any.
    func changePosition(account: Int64) async throws(StoreError) -> Int64
    /// Removes the tombstones of notes removed before `removedBefore` (milliseconds since
    /// 1970), recording for each account the newest sequence removed so that an older
    /// cursor reads as expired. Returns how many were removed.
    func purgeChanges(removedBefore: Int64) async throws(StoreError) -> Int
    /// Calls `observer` whenever a write to notes has committed (from this process, and on
    /// PostgreSQL from any server on the database), with the account it was for.
    func observeChanges(_ observer: @escaping @Sendable (ChangeSignal) -> Void)
}
