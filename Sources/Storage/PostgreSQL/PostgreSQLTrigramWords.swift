/// The characters pg_trgm takes for letters, of which it makes trigrams: ASCII letters and
/// digits in a database whose character type (`LC_CTYPE`) is `C` or `POSIX`, and the
/// letters and digits of every script otherwise (`C.UTF-8`, `en_US.UTF-8`, …). A query
/// the trigram index can serve holds at least three such characters in a row; for any
/// other, pg_trgm would read its whole index (such queries go to the piece index).
///
/// ```swift
/// PostgreSQLTrigramWords.allScripts.trigrams(of: "会议室")  // ["会议室"]
/// PostgreSQLTrigramWords.ascii.trigrams(of: "会议室")       // []
/// PostgreSQLTrigramWords.allScripts.trigrams(of: "a b")    // []
/// PostgreSQLTrigramWords.allScripts.trigrams(of: "milk tea")  // ["mil", "ilk", "tea"]
/// ```
enum PostgreSQLTrigramWords: Sendable, Hashable {
    case ascii
    case allScripts

    /// The database's, read from its `LC_CTYPE`.
    init(on connection: PostgreSQLConnection) throws(PostgreSQLError) {
        let rows = try connection.query(
            "SELECT datctype FROM pg_database WHERE datname = current_database()")
        let ctype = rows.count > 0 ? rows.text(0, 0) : "C"
        self = ctype == "C" || ctype == "POSIX" ? .ascii : .allScripts
    }

    /// The trigrams pg_trgm looks up for `folded` inside a `LIKE` pattern, but those it
    /// pads at the query's word boundaries: every three letters or digits in a row. A note
    /// that holds them all is a candidate the index yields and the recheck may refuse.
    func trigrams(of folded: String) -> [String] {
        var found: [String] = []
        var run: [Unicode.Scalar] = []
        for scalar in folded.unicodeScalars {
            guard isLetterOrDigit(scalar) else {
                run.removeAll()
                continue
            }
            run.append(scalar)
            guard run.count >= 3 else { continue }
            var trigram = ""
            trigram.unicodeScalars.append(contentsOf: run.suffix(3))
            if !found.contains(trigram) { found.append(trigram) }
        }
        return found
    }

    private func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return (0x30...0x39).contains(scalar.value) || (0x61...0x7A).contains(scalar.value)
                || (0x41...0x5A).contains(scalar.value)
        }
        return self == .allScripts
            && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
    }
}
