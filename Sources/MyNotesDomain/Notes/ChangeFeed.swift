import Locking

/// The change feed's rules: pages of an account's changes after a cursor, an error for a
/// cursor the feed can no longer answer for (its tombstones were purged), and, at most
/// once an hour (or once per retention, if shorter; on the service's clock), the purge of tombstones older than the
/// retention, run by whichever feed request or committed write finds it due.
///
/// ```swift
/// let feed = ChangeFeed(store: store, configuration: ChangeFeedConfiguration(), now: { keeper.now })
/// let page = try await feed.page(account: account.id, after: nil, limit: 200)
/// ```
package final class ChangeFeed: Sendable {
    package static let sweepInterval: Int64 = 3_600_000
    package static let pageSizes = 1...1_000
    package static let defaultPageSize = 200
    /// What a stream reads at once: its memory, with notes of up to 64 KiB, stays small.
    package static let streamPageSize = 32

    private let store: any ChangeFeedStore
    package let configuration: ChangeFeedConfiguration
    /// Now, in milliseconds since 1970, on the service's clock.
    private let now: @Sendable () -> Int64
    /// When the last purge began (at first, when the feed was made: a purge is due an
    /// interval later), and how many run in the background.
    private let sweeps: Lock<(last: Int64, running: Int)>

    package init(
        store: any ChangeFeedStore, configuration: ChangeFeedConfiguration,
        now: @escaping @Sendable () -> Int64
    ) {
        self.store = store
        self.configuration = configuration
        self.now = now
        sweeps = Lock((now(), 0))
        store.observeChanges { [weak self] _ in self?.committed() }
    }

    /// The account's changes after `cursor` (`nil`: from nothing), at most `limit`.
    package func page(account: Int64, after cursor: Int64?, limit: Int)
        async throws(ChangeFeedError) -> FeedPage
    {
        await sweepIfDue()
        let read: FeedRead
        do {
            read = try await store.changes(account: account, after: cursor, limit: limit)
        } catch {
            throw .storeFailed(error)
        }
        guard case .page(let page) = read else { throw .cursorExpired }
        return page
    }

    /// What a live stream sends next: the account's changes after `cursor`, a small page
    /// at a time (``streamPageSize``, so that a stream's memory stays small); `nil` when
    /// the cursor expired meanwhile or the store failed. The stream then ends, and the
    /// client's reconnection learns which from ``page(account:after:limit:)``.
    package func streamPage(account: Int64, after cursor: Int64) async -> FeedPage? {
        guard
            case .page(let page)? = try? await store.changes(
                account: account, after: cursor, limit: Self.streamPageSize)
        else { return nil }
        return page
    }

    /// Calls `observer` whenever a write to notes has committed, with its account.
    package func observe(_ observer: @escaping @Sendable (ChangeSignal) -> Void) {
        store.observeChanges(observer)
    }

    /// The account's position now: where a stream without a cursor starts.
    package func position(account: Int64) async throws(ChangeFeedError) -> Int64 {
        do {
            return try await store.changePosition(account: account)
        } catch {
            throw .storeFailed(error)
        }
    }

    /// Purges the tombstones past the retention when the last purge is an hour old (or as
    /// old as the retention, when that is shorter), and also while a purge started in the
    /// background runs, so that a read after this never sees what that purge removes (the
    /// purge is idempotent). A purge that fails is tried again at the next: until then the
    /// tombstones stay, which costs room, never a change.
    package func sweepIfDue() async {
        guard let cutoff = dueSweep(orRunning: true) else { return }
        _ = try? await store.purgeChanges(removedBefore: cutoff)
    }

    /// The purge's cutoff when one is due (which is then taken as begun) or, when
    /// `orRunning`, while one runs in the background; else `nil`.
    private func dueSweep(orRunning: Bool) -> Int64? {
        guard let retention = configuration.retention else { return nil }
        let now = self.now()
        let kept = SessionLifetime.milliseconds(retention)
        let interval = min(Self.sweepInterval, kept)
        let due = sweeps.withLock { sweeps in
            if now - sweeps.last >= interval {
                sweeps.last = now
                return true
            }
            return orRunning && sweeps.running > 0
        }
        return due ? now - kept : nil
    }

    /// After a commit: a due purge runs in the background, so that a server whose clients
    /// never read the feed still drops old tombstones. Nothing waits for it.
    private func committed() {
        guard let cutoff = dueSweep(orRunning: false) else { return }
        sweeps.withLock { $0.running += 1 }
        Task {
            _ = try? await store.purgeChanges(removedBefore: cutoff)
            sweeps.withLock { $0.running -= 1 }
        }
    }
}
