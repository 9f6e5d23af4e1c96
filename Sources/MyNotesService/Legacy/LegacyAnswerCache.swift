import HTTPCore
import Locking
import MyNotesDomain
import MyNotesProtocol

/// Recent `query` answers, each kept with its account and the store's change stamp from
/// before it was read, and served again only while the store says nothing that answer
/// depends on has committed since (`NoteStore.isUnchanged`): a write to the account (its
/// notes, tokens or password), or a commit the store cannot attribute, as another
/// process's on the same database. Writes to other accounts leave it kept, so an answer
/// is never older than the last acknowledged write to its account, and a busy writer
/// elsewhere does not empty the cache.
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

    /// A kept answer, to be checked against the store before it is given again.
    struct Entry: Sendable {
        let account: Int64
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
    private let state = Lock(State())

    /// The kept answer for `key` while `now` is before its session's deadline; whether
    /// it is still the store's is for the caller to ask, outside this cache's lock.
    func entry(for key: Key, now: Int64) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries[key], now < entry.until else { return nil }
            return entry
        }
    }

    /// Keeps `response` for `key`, the account's answer read after the store showed
    /// `stamp`, unless an answer read later is kept already (concurrent misses finish in
    /// any order). When the budget is spent, everything kept goes: answers are cheap to
    /// make again.
    func keep(
        _ response: HTTPResponse, for key: Key, account: Int64, readAt stamp: StoreChangeStamp,
        until: Int64
    ) {
        let size = Self.cost(of: response, key)
        guard response.stream == nil, size <= Self.maxAnswerBytes else { return }
        state.withLock { state in
            if let old = state.entries[key] {
                guard stamp.isAsRecent(as: old.stamp) else { return }
                state.bytes -= Self.cost(of: old.response, key)
            }
            if state.bytes + size > Self.budgetBytes {
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            state.entries[key] = Entry(
                account: account, stamp: stamp, response: response, until: until)
            state.bytes += size
        }
    }

    /// The bytes an entry holds, roughly: its answer, its key, and the bookkeeping.
    private static func cost(of response: HTTPResponse, _ key: Key) -> Int {
        response.body.count + key.credentials.email.text.utf8.count + 128
    }
}
