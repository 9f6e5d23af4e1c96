import Foundation
import Locking

/// Keeps session tokens to their lifetimes for both APIs: judges a presented token,
/// records its use (at most once a minute, so that reads do not all become writes),
/// removes an expired one when it is presented, and now and then every expired one.
///
/// Its time is the service's clock (``ServiceConfiguration/clock``) read as wall time:
/// the time of day when the keeper was made plus what that clock has counted since, so a
/// test's `ManualClock` moves sessions through their lifetimes.
///
/// ```swift
/// let keeper = SessionKeeper(store: store, lifetime: .standard, clock: ContinuousClock())
/// guard let check = found, let session = check.session, await keeper.use(session) else { … }
/// ```
package final class SessionKeeper: Sendable {
    /// A use is recorded when the last recorded one is at least this old.
    package static let touchInterval: Int64 = 60_000
    /// Expired sessions are swept at most this often (by sign-ins).
    package static let sweepInterval: Int64 = 3_600_000

    package let store: any SessionStore & AccountStore
    package let lifetime: SessionLifetime
    private let started: Int64
    private let stopwatch: Stopwatch
    /// When the last sweep ran, `nil` before the first.
    private let lastSweep = Lock<Int64?>(nil)

    package init(
        store: any SessionStore & AccountStore, lifetime: SessionLifetime,
        clock: any Clock<Duration>
    ) {
        self.store = store
        self.lifetime = lifetime
        started = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        stopwatch = Stopwatch(on: clock)
    }

    /// Now, in milliseconds since 1970.
    package var now: Int64 { started + SessionLifetime.milliseconds(stopwatch.elapsed) }

    /// Whether a token check holds a token that still works (`true` without a session:
    /// email-only mode, where there is none to judge).
    package func isLive(_ check: TokenCheck?, at now: Int64) -> Bool {
        guard let session = check?.session else { return true }
        return lifetime.isLive(session, at: now)
    }

    /// After the store found the presented token: `true` when it still works, its use
    /// recorded if the last record is a minute old; `false` when it has expired, and then
    /// it is removed. Both writes are bookkeeping: when the store refuses them (overload,
    /// a failing disk) the request is answered all the same and the next use tries again.
    package func use(_ session: Session, at now: Int64) async -> Bool {
        guard lifetime.isLive(session, at: now) else {
            _ = try? await store.removeToken(session.tokenHash)
            return false
        }
        if now - session.lastUsedAt >= Self.touchInterval {
            try? await store.touchToken(session.tokenHash, usedAt: now)
        }
        return true
    }

    /// Until when an answer read with `session`, just used at `now`, may be served again
    /// without the store (`LegacyAnswerCache`): while the session lives and its next use
    /// needs no record. `Int64.max` without a session (email-only mode).
    package func reuseDeadline(of session: Session?, usedAt now: Int64) -> Int64 {
        guard var session else { return .max }
        if now - session.lastUsedAt >= Self.touchInterval { session.lastUsedAt = now }
        return min(lifetime.expiry(of: session) ?? .max, session.lastUsedAt + Self.touchInterval)
    }

    /// Removes every expired session when the last sweep is an hour old (or there was
    /// none), so tokens never used again do not pile up.
    package func sweepIfDue() async {
        let now = self.now
        let due = lastSweep.withLock { last in
            guard last.map({ now - $0 >= Self.sweepInterval }) ?? true else { return false }
            last = now
            return true
        }
        guard due, lifetime.idle != nil || lifetime.absolute != nil else { return }
        _ = try? await store.removeSessions(
            lastUsedBefore: lifetime.idle.map { now - SessionLifetime.milliseconds($0) },
            createdBefore: lifetime.absolute.map { now - SessionLifetime.milliseconds($0) })
    }
}
