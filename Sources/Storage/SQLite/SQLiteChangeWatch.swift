import Glibc
import Locking

/// Tells whether what a read found of one account is still what the database holds, on
/// every request and without a query: commits of the store's own writer are accounted
/// account by account, and any other commit (another process, as `mynotes-server
/// accounts …` beside the server) shows in the WAL index.
///
/// The WAL index's header, the first 48 bytes of the `-shm` file
/// (https://www.sqlite.org/walformat.html), is rewritten by every connection of every
/// process when it commits: one `pread` and one `fstat` read it, no lock and no SQL. A
/// torn read (a commit rewriting the header meanwhile) only ever yields a header that
/// matches nothing. SQLite deletes the `-shm` file when the last connection to the
/// database closes (the store reopening its connections after the disk was read-only,
/// say) and makes a new one: the watch then reads a file no longer linked, sees it, and
/// reads the new one instead.
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

    static let slotCount = 4096
    private let path: String
    /// The open `-shm` file, -1 when there is none.
    private let descriptor: Lock<Int32>
    private let ledger = Lock(Ledger())

    /// Watches the WAL index of the database at `path`.
    init(databasePath path: String) {
        self.path = path + "-shm"
        descriptor = Lock(open(self.path, O_RDONLY | O_CLOEXEC))
    }

    deinit {
        descriptor.withLock { if $0 >= 0 { close($0) } }
    }

    /// The stamp now; `nil` when there is no WAL index to read (an in-memory database, a
    /// database not in WAL mode, or one whose index was just replaced).
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

    /// The WAL index's header now; `nil` when there is none.
    func header() -> Header? {
        descriptor.withLock { descriptor in
            if descriptor >= 0, let header = Self.header(of: descriptor) { return header }
            if descriptor >= 0 { close(descriptor) }
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            return descriptor >= 0 ? Self.header(of: descriptor) : nil
        }
    }

    /// The header, `nil` when the file is no longer the database's (unlinked) or holds no
    /// written header.
    private static func header(of descriptor: Int32) -> Header? {
        var words: Header = (0, 0, 0, 0, 0, 0)
        let read = withUnsafeMutableBytes(of: &words) { bytes in
            pread(descriptor, bytes.baseAddress, bytes.count, 0)
        }
        // Byte 12 is `isInit`: a header no connection has written yet stamps nothing.
        guard read == MemoryLayout.size(ofValue: words), (words.1 >> 32) & 0xFF != 0 else {
            return nil
        }
        // Checked after the read: a file unlinked before it may have been read stale.
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_nlink > 0 else { return nil }
        return words
    }
}
