import CommandLineSupport
import MyNotesDomain
import PostgreSQLStore
import SQLiteStore
import Storage
import StorageSupport

/// `mynotes-server doctor`: checks a database and says what it found.
struct DoctorCommand: Command {
    static let configuration = CommandConfiguration(
        name: "doctor", abstract: "Check the database and report what is wrong.",
        discussion: """
            Checks the database. SQLite: integrity (integrity_check), schema version against
            this build's migrations, journal mode, file permissions, and free disk space.
            PostgreSQL: the connection, fsync and full_page_writes, schema version, and the
            search indexes (present, valid, merged by this user, caught up, against
            shared_buffers). Prints one line per finding (ok, warning or problem); exits 1
            when there is a problem. Reads only: safe while servers run.
            """,
        options: [DatabaseOption.spec])

    let location: StoreLocation

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        location = try DatabaseOption.location(arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let findings: [DoctorFinding]
        let name: String
        switch location {
        case .sqlite(let path):
            findings = SQLiteDoctor(path: path).examine()
            name = path
        case .postgreSQL(let conninfo):
            findings = PostgreSQLDoctor(conninfo: conninfo).examine()
            name = location.description
        }
        for finding in findings { context.print(finding.description) }
        let problems = findings.filter { $0.severity == .problem }.count
        if problems > 0 {
            throw CommandFailure("\(problems) problem\(problems == 1 ? "" : "s") found in \(name)")
        }
    }
}
