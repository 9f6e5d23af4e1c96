import MyNotesDomain
import PostgreSQLStore
import SQLiteStore
import StorageSupport

/// Where the store is, as given by `--database`: `sqlite:PATH`, or a PostgreSQL database
/// as libpq names one: a `postgres://` or `postgresql://` URI, or `key=value` pairs
/// (`host=db port=5432 dbname=mynotes`). Whatever a PostgreSQL location leaves out comes
/// from libpq's `PG*` variables, and the password from `PGPASSWORD` or `~/.pgpass`, so it
/// never needs to be on the command line.
///
/// ```swift
/// let store = try StoreLocation(parsing: "sqlite:./mynotes.sqlite").open()
/// let shared = try StoreLocation(parsing: "postgres://mynotes@db.internal:5432/mynotes").open()
/// ```
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    /// A libpq connection string, as given.
    case postgreSQL(conninfo: String)

    public init(parsing text: String) throws(StoreError) {
        if text.hasPrefix("sqlite:"), text.count > "sqlite:".count {
            var path = text.dropFirst("sqlite:".count)
            // Accept the URL spelling `sqlite:///abs/path` as well as `sqlite:PATH`.
            if path.hasPrefix("//") { path = path.dropFirst(2) }
            self = .sqlite(path: String(path))
        } else if PostgreSQLConninfo.isConninfo(text) {
            self = .postgreSQL(conninfo: text)
        } else {
            throw .unsupportedLocation(text)
        }
    }

    /// Opens the store; `indexing` hears how far building the SQLite search index has come
    /// when the database holds notes the index lacks (all of them after an upgrade), and
    /// `migrating` how a PostgreSQL database that holds notes is migrated (building its
    /// search indexes takes minutes per million notes).
    public func open(
        limits: StoreLimits = StoreLimits(),
        indexing: @escaping (SearchIndexProgress) -> Void = { _ in },
        migrating: @escaping @Sendable (PostgreSQLMigrationProgress) -> Void = { _ in }
    ) throws(StoreError) -> any NoteStore {
        switch self {
        case .sqlite(let path): try SQLiteNoteStore(path: path, limits: limits, indexing: indexing)
        case .postgreSQL(let conninfo):
            try PostgreSQLNoteStore(conninfo: conninfo, limits: limits, migrating: migrating)
        }
    }

    /// The location as logs and messages show it: a password in it is replaced by `***`.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgreSQL(let conninfo): PostgreSQLConninfo.redacted(conninfo)
        }
    }
}
