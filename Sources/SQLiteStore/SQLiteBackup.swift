import CSQLite
import Foundation
import MyNotesDomain

/// Copies of a live SQLite database, and restoring one, for `mynotes-server backup` and
/// `restore`.
///
/// A backup reads one snapshot (one read transaction) and copies it page by page with
/// SQLite's online backup API. In WAL mode a reader never blocks the writer, so the
/// server goes on committing while the copy is made; the copy holds exactly the
/// commits made before its snapshot was taken. It is written to `FILE.partial`, checked
/// (`quick_check`) and only then renamed to `FILE`, so a `FILE` is always whole.
///
/// ```swift
/// let report = try SQLiteBackup.backUp(database: "mynotes.sqlite", to: "copy.sqlite")
/// print(report.pages, report.duration)
/// try SQLiteBackup.restore(from: "copy.sqlite", to: "mynotes.sqlite")  // server stopped
/// ```
public enum SQLiteBackup {
    /// What a backup did.
    public struct Report: Sendable {
        public var pages: Int
        public var bytes: Int
        public var duration: Duration
    }

    /// Pages copied per step (1 MiB of 4 KiB pages): the source's lock is taken per step.
    static let pagesPerStep: Int32 = 256

    /// Copies `database` to a new file `destination`, which must not exist.
    public static func backUp(database: String, to destination: String) throws(BackupError)
        -> Report
    {
        let started = ContinuousClock.now
        guard FileManager.default.fileExists(atPath: database) else {
            throw .missing(path: database)
        }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw .destinationExists(path: destination)
        }
        let partial = destination + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        // Readable by its owner only, as the database should be: it holds every note.
        // SQLite gives its -wal and -shm files the same mode.
        guard
            FileManager.default.createFile(
                atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw .fileSystem(path: partial, reason: "cannot create the file")
        }
        let pages: Int
        do {
            let source = try SQLiteConnection(path: database, mode: .readOnly)
            // One snapshot for the whole copy: with it open, writes by the server do not
            // make the backup start over, and the copy is that one moment.
            try source.execute("BEGIN; SELECT count(*) FROM sqlite_master;")
            defer { try? source.execute("COMMIT") }
            let target = try SQLiteConnection(path: partial, mode: .readWrite)
            pages = try copy(from: source, to: target)
            try target.execute("PRAGMA journal_mode = WAL")
            let findings = try check(target, pragma: "quick_check")
            guard findings.isEmpty else {
                try? FileManager.default.removeItem(atPath: partial)
                throw BackupError.notSound(path: partial, findings: findings)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw mapped(error)
        }
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: partial + suffix)
        }
        guard rename(partial, destination) == 0 else {
            throw .fileSystem(path: destination, reason: String(cString: strerror(errno)))
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: destination)[.size]) as? Int
        return Report(pages: pages, bytes: bytes ?? 0, duration: .now - started)
    }

    /// Replaces the contents of `database` (created if missing) with those of `backup`,
    /// after checking `backup`. Refuses when another process has `database` open.
    public static func restore(from backup: String, to database: String) throws(BackupError) {
        guard FileManager.default.fileExists(atPath: backup) else { throw .missing(path: backup) }
        do {
            let source = try SQLiteConnection(path: backup, mode: .readOnly)
            let findings = try check(source, pragma: "integrity_check")
            guard findings.isEmpty else {
                throw BackupError.notSound(path: backup, findings: findings)
            }
            // A database made here is its owner's only, as a backup is.
            if !FileManager.default.fileExists(atPath: database) {
                _ = FileManager.default.createFile(
                    atPath: database, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            let target = try SQLiteConnection(path: database, mode: .readWrite)
            try lockExclusively(target, path: database)
            _ = try copy(from: source, to: target)
            try target.execute("PRAGMA journal_mode = WAL")
        } catch {
            throw mapped(error)
        }
    }

    /// Takes the database for this connection alone, or fails with `databaseInUse`.
    /// Leaving WAL mode needs every other connection closed; exclusive locking then keeps
    /// a server from opening the file until the restore is done.
    private static func lockExclusively(_ target: SQLiteConnection, path: String)
        throws(BackupError)
    {
        // No waiting: a lock held by someone else means the database is in use.
        sqlite3_busy_timeout(target.handle, 0)
        do {
            try target.execute("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = DELETE;")
            try target.execute("BEGIN EXCLUSIVE; COMMIT;")
        } catch {
            if error.code == SQLITE_BUSY || error.code == SQLITE_LOCKED {
                throw .databaseInUse(path: path)
            }
            throw .database(error)
        }
    }

    private static func mapped(_ error: any Error) -> BackupError {
        switch error {
        case let error as BackupError: error
        case let error as SQLiteError: .database(error)
        default: .fileSystem(path: "", reason: "\(error)")
        }
    }

    /// The backup API, in steps of ``pagesPerStep``; returns the pages copied.
    private static func copy(from source: SQLiteConnection, to target: SQLiteConnection)
        throws(SQLiteError) -> Int
    {
        guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main")
        else {
            throw SQLiteError(
                extendedCode: sqlite3_extended_errcode(target.handle),
                message: target.lastErrorMessage, sql: nil)
        }
        var code = SQLITE_OK
        repeat {
            code = sqlite3_backup_step(backup, pagesPerStep)
            if code == SQLITE_BUSY || code == SQLITE_LOCKED { sched_yield() }
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        let pages = Int(sqlite3_backup_pagecount(backup))
        let finish = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finish == SQLITE_OK else {
            throw SQLiteError(
                extendedCode: sqlite3_extended_errcode(target.handle),
                message: target.lastErrorMessage, sql: nil)
        }
        return pages
    }

    /// The rows of `PRAGMA integrity_check` or `quick_check` other than `ok`.
    static func check(_ connection: SQLiteConnection, pragma: String) throws(SQLiteError)
        -> [String]
    {
        let statement = try connection.statement("PRAGMA \(pragma)")
        var findings: [String] = []
        while try statement.step() {
            let row = statement.text(0)
            if row != "ok" { findings.append(row) }
        }
        connection.finishStatements()
        return findings
    }
}
