import CommandLineSupport
import Storage

/// `mynotes-server doctor`: checks a database and says what it found.
struct DoctorCommand: Command {
    static let configuration = CommandConfiguration(
        name: "doctor", abstract: "Check the database and report what is wrong.",
        discussion: """
            Checks the database: integrity (integrity_check), schema version against this
            build's migrations, journal mode, file permissions, and free disk space. Prints
            one line per finding (ok, warning or problem); exits 1 when there is a problem.
            Reads only: safe while the server runs.
            """,
        options: [DatabaseOption.spec])

    let path: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = try DatabaseOption.sqlitePath(arguments, for: "doctor")
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let findings = SQLiteDoctor(path: path).examine()
        for finding in findings { context.print(finding.description) }
        let problems = findings.filter { $0.severity == .problem }.count
        if problems > 0 {
            throw CommandFailure("\(problems) problem\(problems == 1 ? "" : "s") found in \(path)")
        }
    }
}
