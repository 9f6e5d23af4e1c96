import MyNotesDomain
import StorageSupport

/// Checks a PostgreSQL database for `mynotes-server doctor`: that it connects, that the
/// server keeps acknowledged writes (`fsync`, `full_page_writes`), the schema against the
/// migrations this build knows, the search indexes (present, valid, merged by this user,
/// caught up, and whether `shared_buffers` holds them). Reads only; safe while servers run.
///
/// ```swift
/// let findings = PostgreSQLDoctor(conninfo: "postgres://mynotes@db/mynotes").examine()
/// for finding in findings { print(finding) }  // ok: fsync and full_page_writes are on …
/// ```
public struct PostgreSQLDoctor: Sendable {
    public let conninfo: String
    /// Changes waiting for the search indexer past which it is a warning: searches test
    /// each waiting note of their account one by one until the indexer has read it.
    public var waitingChangesWarning: Int64 = 100_000

    public init(conninfo: String) {
        self.conninfo = conninfo
    }

    public func examine() -> [DoctorFinding] {
        let connection: PostgreSQLConnection
        do throws(PostgreSQLError) {
            connection = try PostgreSQLConnection(conninfo: conninfo)
        } catch {
            return [DoctorFinding(.problem, "cannot connect: \(error.message)")]
        }
        do throws(PostgreSQLError) {
            var findings = try server(connection) + durability(connection)
            let schema = try schema(connection)
            findings += schema.findings
            if schema.hasSearchChunks {
                findings +=
                    try invalidIndexes(connection) + searchIndexes(connection)
                    + waitingChanges(connection)
            }
            return findings
        } catch {
            return [DoctorFinding(.problem, "cannot read the database: \(error.message)")]
        }
    }

    private func server(_ connection: PostgreSQLConnection) throws(PostgreSQLError)
        -> [DoctorFinding]
    {
        let rows = try connection.query(
            "SELECT current_setting('server_version'), current_user, current_database()")
        return [
            DoctorFinding(
                .ok,
                "connected to PostgreSQL \(rows.text(0, 0)) as \(rows.text(0, 1)), database "
                    + rows.text(0, 2))
        ]
    }

    /// A write the store acknowledged survives a crash of the database server only with
    /// both on (the store commits with `synchronous_commit` itself).
    private func durability(_ connection: PostgreSQLConnection) throws(PostgreSQLError)
        -> [DoctorFinding]
    {
        let rows = try connection.query(
            "SELECT current_setting('fsync'), current_setting('full_page_writes')")
        let off = [("fsync", rows.text(0, 0)), ("full_page_writes", rows.text(0, 1))]
            .filter { $0.1 != "on" }.map(\.0)
        guard off.isEmpty else {
            return [
                DoctorFinding(
                    .problem,
                    "\(off.joined(separator: " and ")) off: writes acknowledged before a crash "
                        + "of the database server can be lost; turn it on in postgresql.conf")
            ]
        }
        return [DoctorFinding(.ok, "fsync and full_page_writes are on")]
    }

    private func schema(_ connection: PostgreSQLConnection) throws(PostgreSQLError)
        -> (findings: [DoctorFinding], hasSearchChunks: Bool)
    {
        let table = try connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL")
        var applied: Set<String>?
        if table.text(0, 0) == "t" {
            let rows = try connection.query("SELECT name FROM schema_migrations")
            applied = PostgreSQLMigrations.recognised(
                Set((0..<rows.count).map { rows.text($0, 0) }))
        }
        let findings = DoctorFinding.schema(
            applied: applied, known: PostgreSQLMigrations.all.map(\.name))
        // The search checks are for the layout this build reads; `serve` builds it first.
        let hasSearchChunks = PostgreSQLSearchLookup.Index.allCases.allSatisfy {
            applied?.contains($0.migration) == true
        }
        return (findings, hasSearchChunks)
    }

    /// Indexes an interrupted `CREATE INDEX CONCURRENTLY` or `REINDEX CONCURRENTLY` left
    /// invalid: PostgreSQL keeps them up to date on every write and never reads them.
    private func invalidIndexes(_ connection: PostgreSQLConnection) throws(PostgreSQLError)
        -> [DoctorFinding]
    {
        let rows = try connection.query(
            """
            SELECT c.relname FROM pg_index i
            JOIN pg_class c ON c.oid = i.indexrelid
            JOIN pg_namespace s ON s.oid = c.relnamespace
            WHERE s.nspname = current_schema() AND NOT (i.indisvalid AND i.indisready)
            ORDER BY c.relname
            """)
        guard rows.count > 0 else { return [DoctorFinding(.ok, "every index is valid")] }
        return (0..<rows.count).map { row in
            let name = rows.text(row, 0)
            // REINDEX CONCURRENTLY's copy, left by its interruption beside the index it
            // was rebuilding, which is still valid.
            if name.hasSuffix("_ccnew") || name.hasSuffix("_ccold") {
                return DoctorFinding(
                    .warning,
                    "index \(name) is left from an interrupted REINDEX CONCURRENTLY and slows "
                        + "every write: DROP INDEX CONCURRENTLY \(name)")
            }
            return DoctorFinding(
                .problem,
                "index \(name) is invalid (an interrupted concurrent build): searches cannot "
                    + "use it; REINDEX INDEX CONCURRENTLY \(name)")
        }
    }

    /// The indexes searches read their pieces from: present, owned by this user (whose
    /// indexer merges their pending entries), and their size against `shared_buffers`.
    private func searchIndexes(_ connection: PostgreSQLConnection) throws(PostgreSQLError)
        -> [DoctorFinding]
    {
        var findings: [DoctorFinding] = []
        var present: [String] = []
        var bytes: Int64 = 0
        for index in PostgreSQLSearchLookup.Index.allCases {
            let rows = try connection.query(
                "SELECT pg_relation_size(to_regclass($1)), to_regclass($1) IS NULL",
                .text(index.name))
            if rows.text(0, 1) == "t" {
                findings.append(
                    DoctorFinding(
                        .problem,
                        "search index \(index.name) is missing: a search that needs it reads "
                            + "every chunk of every account (docs/SCALING.md)"))
            } else {
                present.append(index.name)
                bytes += rows.int64(0, 0)
            }
        }
        guard !present.isEmpty else { return findings }
        switch try PostgreSQLSearchIndexer.pendingEntries(on: connection) {
        case .merged:
            findings.append(
                DoctorFinding(.ok, "this user may merge the search indexes' pending entries"))
        case .left:
            findings.append(
                DoctorFinding(
                    .warning,
                    "this user does not own the search indexes: their pending entries wait "
                        + "for a vacuum, and searches slow down as they grow (docs/SCALING.md)"))
        }
        let buffers = try connection.query(
            "SELECT pg_size_bytes(current_setting('shared_buffers'))"
        ).int64(0, 0)
        let sizes =
            "the search indexes (\(Self.mebibytes(bytes))) and shared_buffers "
            + "(\(Self.mebibytes(buffers)))"
        findings.append(
            bytes <= buffers
                ? DoctorFinding(.ok, sizes + ": the indexes fit")
                : DoctorFinding(
                    .warning,
                    sizes + ": new searches read index pages from outside PostgreSQL's cache; "
                        + "docs/SCALING.md, Memory for the search indexes"))
        return findings
    }

    private func waitingChanges(_ connection: PostgreSQLConnection) throws(PostgreSQLError)
        -> [DoctorFinding]
    {
        let rows = try connection.query(
            """
            SELECT coalesce(sum(a.change_seq - coalesce(p.indexed_seq, 0)), 0)::bigint,
                count(*) FILTER (WHERE a.change_seq > coalesce(p.indexed_seq, 0))
            FROM accounts a LEFT JOIN search_chunks_progress p ON p.account_id = a.id
            """)
        let waiting = rows.int64(0, 0)
        let accounts = rows.int64(0, 1)
        guard waiting > 0 else { return [DoctorFinding(.ok, "search index: every change read")] }
        let text =
            "search index: \(waiting) changes of \(accounts) account\(accounts == 1 ? "" : "s") "
            + "wait for a server's indexer"
        return [
            waiting >= waitingChangesWarning
                ? DoctorFinding(
                    .warning, text + "; searches test those notes one by one meanwhile")
                : DoctorFinding(.ok, text)
        ]
    }

    private static func mebibytes(_ bytes: Int64) -> String { "\(bytes >> 20) MiB" }
}
