import Glibc
import Synchronization

/// Reads a WAL database's change stamp without a query: the first copy of the WAL-index
/// header at the start of the `-shm` file (https://www.sqlite.org/walformat.html), which
/// every connection of every process rewrites when it commits. One `pread` of 48 bytes
/// and one `fstat`, no lock and no SQL: cheap enough to check on every request that a
/// cached answer is still the database's.
///
/// A torn read (a commit rewriting the header meanwhile) only ever yields a stamp that
/// matches nothing, so a cache misses; it never makes an old stamp look current. SQLite
/// deletes the `-shm` file when the last connection to the database closes (the store
/// reopening its connections after the disk was read-only, say) and makes a new one: the
/// watch then reads a file no longer linked, sees it, and reads the new one instead.
final class SQLiteChangeWatch: Sendable {
    private let path: String
    /// The open `-shm` file, -1 when there is none.
    private let descriptor: Mutex<Int32>

    /// Watches the WAL index of the database at `path`.
    init(databasePath path: String) {
        self.path = path + "-shm"
        descriptor = Mutex(open(self.path, O_RDONLY | O_CLOEXEC))
    }

    deinit {
        descriptor.withLock { if $0 >= 0 { close($0) } }
    }

    /// The stamp now; `nil` when there is no WAL index to read (an in-memory database, a
    /// database not in WAL mode, or one whose index was just replaced).
    func stamp() -> StoreChangeStamp? {
        descriptor.withLock { descriptor in
            if descriptor >= 0, let stamp = Self.stamp(of: descriptor) { return stamp }
            if descriptor >= 0 { close(descriptor) }
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            return descriptor >= 0 ? Self.stamp(of: descriptor) : nil
        }
    }

    /// The header's stamp, `nil` when the file is no longer the database's (unlinked) or
    /// holds no written header.
    private static func stamp(of descriptor: Int32) -> StoreChangeStamp? {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
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
        return StoreChangeStamp(words: words)
    }
}
