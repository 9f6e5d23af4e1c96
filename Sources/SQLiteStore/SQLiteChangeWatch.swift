import Glibc
import Locking
import MyNotesDomain

/// Tells whether what a read found of one account is still what the database holds, on
/// every request and without a query: commits of the store's own writer are accounted
/// account by account, and any other commit (another process, as `mynotes-server
/// accounts …` beside the server) shows in the WAL index.
///
/// The WAL index's header, the first 48 bytes of the `-shm` file
/// (https://www.sqlite.org/walformat.html), is rewritten by every connection of every
/// process when it commits. The watch copies it from SQLite's own mapping of the file, the
/// writer connection's (``SQLiteConnection/walIndexStart()``): no system call and no SQL
/// (a `pread` and an `fstat` per request before, 4% of the server's time under the
/// query). A torn read (a commit rewriting the header meanwhile) only ever yields a header
/// that matches nothing.
///
/// That mapping lives as long as the connection: the writer ``attach(to:)``es the watch
/// to its connection once open and ``detach()``es it before that connection closes (when
/// it reopens after the disk was read-only, or closes). In between the watch stamps
/// nothing, and nothing is cached.
///
/// The writer publishes each of its commits here (``published(_:ownHeader:foreign:)``),
/// after the commit and before it resumes the writes it holds: the publication's
/// sequence number goes to every account the commit touched, or to all of them (the
/// floor) when it cannot say which or when another connection committed since the
/// writer's last commit; with it goes the header its own commit left, when nothing else
/// committed after it. A read's stamp (``stamp()``) is the header and the sequence
/// before the read, and its answer for account A is still current (``isUnchanged``) when
///
/// 1. neither A's slot nor the floor moved past the stamp's sequence, and
/// 2. the header now is the stamp's (nothing committed since), or the writer's last own
///    published one (``StoreChangeStamp/settled``).
///
/// Why no answer is ever older than the last write acknowledged before the request:
///
/// - A write of this store to A: COMMIT returned (its commit is in every read that starts
///   from then on), then the writer published it (A's slot = g), then the write was
///   acknowledged. A request after that sees A's slot at g, so (1) holds only for a stamp
///   of sequence ≥ g, taken after the publication, hence after the commit: the read that
///   followed the stamp saw the write. The writer's commit shows in the header before it
///   is published: in between, (2) fails for older stamps (the header is neither theirs
///   nor the last published one), and stamps taken then have a sequence below g, which
///   (1) refuses once it is published. A conservative miss, never a stale hit.
/// - A commit F by another connection, finished before the request read the header: a
///   stamp taken before F has another header (headers never repeat), so (2) needs the
///   header now to be the writer's own published one, of a commit C after F (the header
///   shows the last commit). The writer's first publication after F, C's or an earlier
///   one, raised the floor to its own sequence: `PRAGMA data_version`, which only other
///   connections' commits change, is read inside each transaction after `BEGIN` and
///   again after `COMMIT`, and F (never inside a transaction: one writer at a time)
///   falls either before a `BEGIN`, so that first read differs from the previous second
///   one (or there was none), or between a `COMMIT` and its second read, which then
///   differ. A header is published only when the two reads agree, the second after the
///   header's read: no other commit came between the writer's commit and that read. The
///   request reads the header, then under the lock the last own header and the floor:
///   seeing C's header, it sees the floor raised after F, so (1) holds only for a stamp
///   taken after F, whose read saw F.
final class SQLiteChangeWatch: Sendable {
    /// The accounts a write touched, as the writer publishes them.
    enum Scope: Sendable {
        /// These accounts (none: a write no answer depends on).
        case accounts([Int64])
        /// Any account: the write cannot say which (an import, a sweep over sessions).
        case database

        static func account(_ id: Int64) -> Scope { .accounts([id]) }
    }

    typealias Header = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// What the writer published. Accounts share slots (their id modulo the count): two
    /// in one slot only invalidate each other's answers more often.
    private struct Ledger {
        var sequence: UInt64 = 0
        var floor: UInt64 = 0
        var lastOwn: Header?
        var slots = [UInt64](repeating: 0, count: SQLiteChangeWatch.slotCount)
    }

    /// The start of the WAL index as a connection's SQLite maps it.
    private struct Mapping: @unchecked Sendable {
        // @unchecked: read under the watch's lock, and only until `detach()`, which the
        // connection's owner calls before closing it.
        let base: UnsafeRawPointer
    }

    static let slotCount = 4096
    private let mapping = Lock<Mapping?>(nil)
    private let ledger = Lock(Ledger())

    /// A watch that stamps nothing until ``attach(to:)``.
    init() {}

    /// Reads the header from `connection`'s mapping of the WAL index from now on, until
    /// ``detach()``, which must come before the connection closes. Without a WAL index (an
    /// in-memory database, one not in WAL mode) the watch stays detached.
    func attach(to connection: SQLiteConnection) {
        let base = connection.walIndexStart()
        mapping.withLock { $0 = base.map(Mapping.init) }
    }

    /// From now on the watch stamps nothing until ``attach(to:)``.
    func detach() {
        mapping.withLock { $0 = nil }
    }

    /// The stamp now; `nil` when there is no WAL index to read (an in-memory database, a
    /// database not in WAL mode) or the watch is detached (the writer reopening).
    func stamp() -> StoreChangeStamp? {
        guard let words = header() else { return nil }
        return ledger.withLock { ledger in
            StoreChangeStamp(
                words: words, sequence: ledger.sequence,
                settled: ledger.lastOwn.map { $0 == words } ?? false)
        }
    }

    /// Whether what a read of `account` found after `since` was taken is still current,
    /// `now` being the stamp taken for this request (see the type's comment).
    func isUnchanged(
        account: Int64, since: StoreChangeStamp, now: StoreChangeStamp
    ) -> Bool {
        guard now.words == since.words || now.settled else { return false }
        return ledger.withLock { ledger in
            max(ledger.floor, ledger.slots[Self.slot(account)]) <= since.sequence
        }
    }

    /// The writer, after a commit and before it resumes the writes of it: `scopes` are
    /// what they touched, `ownHeader` the header its commit left (`nil` when it cannot
    /// be sure no other commit followed), `foreign` whether another connection committed
    /// since its previous publication.
    func published(_ scopes: [Scope], ownHeader: Header?, foreign: Bool) {
        ledger.withLock { ledger in
            ledger.sequence += 1
            let sequence = ledger.sequence
            if foreign { ledger.floor = sequence }
            for scope in scopes {
                switch scope {
                case .database:
                    ledger.floor = sequence
                case .accounts(let accounts):
                    for account in accounts { ledger.slots[Self.slot(account)] = sequence }
                }
            }
            ledger.lastOwn = ownHeader
        }
    }

    /// The writer lost track (a failed batch, a reopened connection): every answer read
    /// so far is stale, and no header is its own until its next commit says so.
    func lostTrack() {
        published([.database], ownHeader: nil, foreign: true)
    }

    private static func slot(_ account: Int64) -> Int {
        Int(UInt64(bitPattern: account) % UInt64(slotCount))
    }

    /// The WAL index's header now; `nil` when the watch is detached or no connection has
    /// written a header yet.
    func header() -> Header? {
        mapping.withLock { mapping in
            guard let base = mapping?.base else { return nil }
            var words: Header = (0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &words) { words in
                words.copyMemory(from: UnsafeRawBufferPointer(start: base, count: words.count))
            }
            // Byte 12 is `isInit`: a header no connection has written yet stamps nothing.
            return (words.1 >> 32) & 0xFF != 0 ? words : nil
        }
    }
}
