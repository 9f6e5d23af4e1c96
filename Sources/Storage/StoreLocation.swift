import MyNotesDomain

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
        } else if Self.isPostgreSQL(text) {
            self = .postgreSQL(conninfo: text)
        } else {
            throw .unsupportedLocation(text)
        }
    }

    /// Opens the store; `indexing` hears how far building the SQLite search index has come
    /// when the database holds notes the index lacks (all of them after an upgrade), and
    /// `migrating` how a PostgreSQL database that holds notes is migrated (issue 15:
    /// building its search indexes takes minutes per million notes).
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
        case .postgreSQL(let conninfo): Self.redacted(conninfo)
        }
    }

    /// A URI with a scheme libpq takes, or `key=value` pairs whose keys are all libpq's.
    private static func isPostgreSQL(_ text: String) -> Bool {
        for scheme in ["postgres://", "postgresql://"] where text.hasPrefix(scheme) {
            return text.count > scheme.count || text == scheme
        }
        let pairs = keyValuePairs(text)
        return !pairs.isEmpty && pairs.allSatisfy { conninfoKeys.contains($0.key) }
    }

    /// The keys of libpq's connection strings that a location may use.
    private static let conninfoKeys: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "channel_binding",
        "connect_timeout", "client_encoding", "options", "application_name",
        "fallback_application_name", "keepalives", "keepalives_idle", "keepalives_interval",
        "keepalives_count", "tcp_user_timeout", "replication", "gssencmode", "sslmode",
        "requiressl", "sslcompression", "sslcert", "sslkey", "sslpassword", "sslrootcert",
        "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version",
        "ssl_max_protocol_version", "krbsrvname", "gsslib", "service", "target_session_attrs",
    ]

    /// `key = value` pairs of a conninfo string; values may be single-quoted with `\'`
    /// and `\\` escapes. Empty when the text is not in that form.
    static func keyValuePairs(_ text: String) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        var rest = Substring(text)
        func skipSpaces() { rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" } }
        skipSpaces()
        while !rest.isEmpty {
            let key = rest.prefix { $0.isLetter || $0 == "_" }
            rest = rest.dropFirst(key.count)
            skipSpaces()
            guard !key.isEmpty, rest.first == "=" else { return [] }
            rest = rest.dropFirst()
            skipSpaces()
            var value = ""
            if rest.first == "'" {
                rest = rest.dropFirst()
                var closed = false
                while let character = rest.popFirst() {
                    if character == "\\", let escaped = rest.popFirst() {
                        value.append(escaped)
                    } else if character == "'" {
                        closed = true
                        break
                    } else {
                        value.append(character)
                    }
                }
                guard closed else { return [] }
            } else {
                while let character = rest.first, character != " ", character != "\t",
                    character != "\n"
                {
                    rest = rest.dropFirst()
                    if character == "\\", let escaped = rest.popFirst() {
                        value.append(escaped)
                    } else {
                        value.append(character)
                    }
                }
            }
            pairs.append((String(key), value))
            skipSpaces()
        }
        return pairs
    }

    /// `conninfo` with its password, if any, replaced by `***`: in a URI's user info, in a
    /// `password=` parameter of a URI, or in a `password=` pair.
    static func redacted(_ conninfo: String) -> String {
        for scheme in ["postgres://", "postgresql://"] where conninfo.hasPrefix(scheme) {
            var rest = Substring(conninfo.dropFirst(scheme.count))
            var result = scheme
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"),
                let colon = authority[..<at].firstIndex(of: ":")
            {
                result += authority[..<colon] + ":***" + authority[at...]
            } else {
                result += authority
            }
            rest = rest[authorityEnd...]
            guard let query = rest.firstIndex(of: "?") else { return result + rest }
            result += rest[...query]
            let parameters = rest[rest.index(after: query)...].split(
                separator: "&", omittingEmptySubsequences: false)
            result += parameters.map { parameter in
                parameter.hasPrefix("password=") ? "password=***" : String(parameter)
            }.joined(separator: "&")
            return result
        }
        let pairs = keyValuePairs(conninfo)
        guard pairs.contains(where: { $0.key == "password" }) else { return conninfo }
        return pairs.map { pair in
            pair.key == "password" ? "password=***" : "\(pair.key)=\(quoted(pair.value))"
        }.joined(separator: " ")
    }

    private static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" })
        else { return value }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "'", with: "\\'")
        return "'\(escaped)'"
    }
}
