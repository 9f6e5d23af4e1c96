import MyNotesDomain

/// Why a backup, a restore or a check of a database could not be done.
///
/// ```swift
/// do { try SQLiteBackup.restore(from: "copy.sqlite", to: "mynotes.sqlite") }
/// catch .databaseInUse(let path) { print("stop the server using \(path) first") }
/// ```
public enum BackupError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The backup would overwrite an existing file.
    case destinationExists(path: String)
    /// Another process (a running server) has the database open.
    case databaseInUse(path: String)
    /// The file to restore from, or to check, does not exist.
    case missing(path: String)
    /// The file to restore from is not a sound SQLite database.
    case notSound(path: String, findings: [String])
    /// SQLite failed, with its own report.
    case database(SQLiteError)
    /// The file system refused (a rename, a directory that cannot be written).
    case fileSystem(path: String, reason: String)

    public var description: String {
        switch self {
        case .destinationExists(let path): "\(path) exists already; choose a new file"
        case .databaseInUse(let path):
            "\(path) is in use by another process (a running server?); stop it first"
        case .missing(let path): "\(path) does not exist"
        case .notSound(let path, let findings):
            "\(path) fails its integrity check: " + findings.prefix(3).joined(separator: "; ")
        case .database(let error): "database failure: \(error)"
        case .fileSystem(let path, let reason): "\(path): \(reason)"
        }
    }
}
