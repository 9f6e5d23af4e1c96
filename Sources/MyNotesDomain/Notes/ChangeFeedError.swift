/// Why the change feed could not answer.
package enum ChangeFeedError: Error, Sendable {
    /// The cursor is older than the feed remembers: the tombstones after it were purged,
    /// so the changes since it can no longer all be told. The client reads again from
    /// nothing.
    case cursorExpired
    case storeFailed(StoreError)
}
