import MyNotesDomain

/// libpq's connection strings, as `--database` gives them: whether a text is one, and how
/// logs show one without its password. Here rather than beside `StoreLocation`, which
/// parses every location, because the store names its own location in its errors.
///
/// ```swift
/// PostgreSQLConninfo.isConninfo("host=db dbname=mynotes")  // true
/// PostgreSQLConninfo.redacted("postgres://me:secret@db/mynotes")  // "postgres://me:***@db/mynotes"
/// ```
package enum PostgreSQLConninfo {
    /// A URI with a scheme libpq takes, or `key=value` pairs whose keys are all libpq's.
    package static func isConninfo(_ text: String) -> Bool {
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
    package static func keyValuePairs(_ text: String) -> [(key: String, value: String)] {
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
    package static func redacted(_ conninfo: String) -> String {
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
