import HTTPCore
import MyNotesProtocol
import Storage
import Synchronization

/// Recent `query` answers, each kept with the store's change stamp from before it was read,
/// and served again only while the store's stamp is unchanged: any commit, by this
/// server or another process on the same database, makes every kept answer stale, so an
/// answer is never older than the last acknowledged write.
///
/// A hit answers without the store: no read, no thread hand-off, no suspended
/// connection. Only answers to a correct token are kept (the key holds the token's hash),
/// so a wrong token always takes the store's constant-time path. Memory is bounded by
/// ``budgetBytes``; answers larger than ``maxAnswerBytes`` are never kept.
final class LegacyAnswerCache: Sendable {
    struct Key: Hashable, Sendable {
        let credentials: LegacyCredentials
        let format: WireFormat
    }

    private struct Entry: Sendable {
        let stamp: StoreChangeStamp
        let response: HTTPResponse
        /// Past this (milliseconds since 1970, the session keeper's clock) the answer is not
        /// given again: the token may have expired, or its use is due to be recorded.
        let until: Int64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
    }

    static let budgetBytes = 8 << 20
    static let maxAnswerBytes = 64 << 10
    private let state = Mutex(State())

    /// The kept answer for `key`, if it was read at `stamp` (the store's stamp now) and
    /// `now` is before its session's deadline.
    func answer(for key: Key, at stamp: StoreChangeStamp, now: Int64) -> HTTPResponse? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.stamp == stamp, now < entry.until
            else { return nil }
            return entry.response
        }
    }

    /// Keeps `response` for `key`, read after the store showed `stamp`. When the budget
    /// is spent, everything kept goes: answers are cheap to make again, and a stale
    /// stamp would empty most of them at the next commit anyway.
    func keep(
        _ response: HTTPResponse, for key: Key, readAt stamp: StoreChangeStamp, until: Int64
    ) {
        let size = Self.cost(of: response, key)
        guard response.stream == nil, size <= Self.maxAnswerBytes else { return }
        state.withLock { state in
            if let old = state.entries[key] {
                state.bytes -= Self.cost(of: old.response, key)
            }
            if state.bytes + size > Self.budgetBytes {
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            state.entries[key] = Entry(stamp: stamp, response: response, until: until)
            state.bytes += size
        }
    }

    /// The bytes an entry holds, roughly: its answer, its key, and the bookkeeping.
    private static func cost(of response: HTTPResponse, _ key: Key) -> Int {
        response.body.count + key.credentials.email.text.utf8.count + 128
    }
}
