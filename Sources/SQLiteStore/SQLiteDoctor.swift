import Foundation
import MyNotesDomain
import StorageSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Checks a SQLite database for `mynotes-server doctor`: that it opens, its integrity,
/// its schema against the migrations this build knows, its file permissions and the free
/// space beside it. Reads only; safe while the server runs.
///
/// ```swift
/// let findings = SQLiteDoctor(path: "mynotes.sqlite").examine()
/// for finding in findings { print(finding) }  // ok: integrity_check passed …
/// let healthy = findings.allSatisfy { $0.severity != .problem }
/// ```
public struct SQLiteDoctor: Sendable {
    public let path: String
    /// Free space below this is a problem: SQLite needs room for its WAL and checkpoints.
    public var minimumFreeBytes = 64 << 20

    public init(path: String) {
        self.path = path
    }

    public func examine() -> [DoctorFinding] {
        guard FileManager.default.fileExists(atPath: path) else {
            return [DoctorFinding(.problem, "\(path) does not exist")]
        }
        var findings = permissions() + freeSpace()
        do throws(SQLiteError) {
            let connection = try SQLiteConnection(path: path, mode: .readOnly)
            findings += try integrity(connection) + schema(connection) + journal(connection)
        } catch {
            findings.append(DoctorFinding(.problem, "cannot read the database: \(error.message)"))
        }
        return findings
    }

    private func integrity(_ connection: SQLiteConnection) throws(SQLiteError) -> [DoctorFinding] {
        let problems = try SQLiteBackup.check(connection, pragma: "integrity_check")
        if problems.isEmpty { return [DoctorFinding(.ok, "integrity_check passed")] }
        return problems.prefix(20).map { DoctorFinding(.problem, "integrity_check: \($0)") }
    }

    private func schema(_ connection: SQLiteConnection) throws(SQLiteError) -> [DoctorFinding] {
        let exists = try connection.statement(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
        let hasTable = try exists.step()
        connection.finishStatements()
        var applied: Set<String>?
        if hasTable {
            let statement = try connection.statement("SELECT name FROM schema_migrations")
            var names = Set<String>()
            while try statement.step() { names.insert(statement.text(0)) }
            connection.finishStatements()
            applied = SQLiteMigrations.recognised(names)
        }
        return DoctorFinding.schema(applied: applied, known: SQLiteMigrations.all.map(\.name))
    }

    private func journal(_ connection: SQLiteConnection) throws(SQLiteError) -> [DoctorFinding] {
        let statement = try connection.statement("PRAGMA journal_mode")
        let mode = try statement.step() ? statement.text(0) : "unknown"
        connection.finishStatements()
        return mode == "wal"
            ? [DoctorFinding(.ok, "journal_mode is wal")]
            : [DoctorFinding(.warning, "journal_mode is \(mode), not wal (serve sets wal)")]
    }

    private func permissions() -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        var status = stat()
        guard stat(path, &status) == 0 else {
            return [
                DoctorFinding(.problem, "cannot stat \(path): \(String(cString: strerror(errno)))")
            ]
        }
        let mode = status.st_mode & 0o777
        let octal = String(mode, radix: 8)
        if mode & 0o007 != 0 {
            findings.append(
                DoctorFinding(
                    .problem,
                    "\(path) is accessible to every user (mode \(octal)); chmod 600 or 640"))
        } else {
            findings.append(DoctorFinding(.ok, "permissions \(octal), owner uid \(status.st_uid)"))
        }
        if access(path, R_OK | W_OK) != 0 {
            findings.append(DoctorFinding(.warning, "this user cannot read and write \(path)"))
        }
        let directory = (path as NSString).deletingLastPathComponent
        if access(directory.isEmpty ? "." : directory, W_OK) != 0 {
            findings.append(
                DoctorFinding(
                    .warning,
                    "this user cannot write \(directory.isEmpty ? "." : directory), where SQLite "
                        + "keeps the -wal and -shm files"))
        }
        return findings
    }

    private func freeSpace() -> [DoctorFinding] {
        let directory = (path as NSString).deletingLastPathComponent
        var info = statvfs()
        guard statvfs(directory.isEmpty ? "." : directory, &info) == 0 else {
            return [DoctorFinding(.warning, "cannot read the free space beside \(path)")]
        }
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
        let needed = max(minimumFreeBytes, size)
        let text = "\(free >> 20) MiB free beside the database (\(size >> 20) MiB)"
        return free < needed
            ? [DoctorFinding(.problem, text + "; want at least \(needed >> 20) MiB")]
            : [DoctorFinding(.ok, text)]
    }
}
