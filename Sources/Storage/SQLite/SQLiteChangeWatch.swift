import Glibc

/// Reads a WAL database's change stamp without a query: the first copy of the WAL-index
/// header at the start of the `-shm` file (https://www.sqlite.org/walformat.html), which
/// every connection of every process rewrites when it commits. One `pread` of 48 bytes,
/// no lock and no SQL: cheap enough to check on every request that a cached answer is
/// still the database's.
///
/// A torn read (a commit rewriting the header meanwhile) only ever yields a stamp that
/// matches nothing, so a cache misses; it never makes an old stamp look current.
final class SQLiteChangeWatch: Sendable {
    private let descriptor: Int32

    /// Watches the database at `path`, whose `-shm` file an open WAL connection keeps.
    /// `nil` when there is none (an in-memory database, or not in WAL mode).
    init?(databasePath path: String) {
        let descriptor = open(path + "-shm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    func stamp() -> StoreChangeStamp? {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        let read = withUnsafeMutableBytes(of: &words) { bytes in
            pread(descriptor, bytes.baseAddress, bytes.count, 0)
        }
        // Byte 12 is `isInit`: a header no connection has written yet stamps nothing.
        guard read == MemoryLayout.size(ofValue: words), (words.1 >> 32) & 0xFF != 0 else {
            return nil
        }
        return StoreChangeStamp(words: words)
    }
}
