import Foundation
import MyNotesTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server's command line as a person uses it: Ctrl-C is never lost, a plain path is a SQLite
/// database, a start that fails leaves no database behind, `accounts --help` is the
/// group's help, and emails are escaped on a terminal.
@Suite struct ServerStartTests {
    var path: (TemporaryDatabase) -> String {
        { $0.directory.appendingPathComponent("notes.sqlite").path }
    }

    @Test("SIGINT right at the ready line stops the server, start after start")
    func interruptAtTheReadyLine() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        for attempt in 1...40 {
            let server = try ServerProcess(database: database.location)
            // ServerProcess kills a server still running 30 s after the signal: a lost
            // SIGINT shows as SIGKILL's status, 9.
            let status = server.stop(signal: SIGINT)
            #expect(status == 0, "attempt \(attempt): \(server.standardError)")
            if status != 0 { break }
        }
    }

    @Test("SIGINT as soon as the process exists ends it, never ignored")
    func interruptRightAfterStart() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        for attempt in 1...20 {
            let process = ChildProcess()
            process.executableURL = CommandRunner.executable("mynotes-server")
            process.arguments = ["--port", "0", "--database", database.location]
            try process.run()
            kill(process.processIdentifier, SIGINT)
            let ended = process.waitUntilExit(timeout: .seconds(30))
            if !ended {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            // Before the handler is installed SIGINT's default ends it (status 2, the
            // signal); after, it stops gracefully (0).
            #expect(ended, "attempt \(attempt): SIGINT was ignored")
            #expect([0, SIGINT].contains(process.terminationStatus), "attempt \(attempt)")
            if !ended { break }
        }
    }

    @Test("--database /path is a SQLite database, the same as sqlite:/path")
    func plainPathIsSQLite() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let file = path(database)
        let added = try CommandRunner.run(
            "mynotes-server", ["accounts", "add", "ann@example.com", "--database", file])
        #expect(added.status == 0, "\(added.standardError)")
        let listed = try CommandRunner.run(
            "mynotes-server", ["accounts", "list", "-d", "sqlite:" + file])
        #expect(listed.outputLines.first?.hasPrefix("ann@example.com\t") == true)
        let server = try ServerProcess(database: file)
        #expect(server.stop(signal: SIGTERM) == 0)
        let unsupported = try CommandRunner.run(
            "mynotes-server", ["accounts", "list", "-d", "mysql://db/notes"])
        #expect(unsupported.status == 2)
        #expect(
            unsupported.errorLines.first
                == "mynotes-server: option '--database' must be sqlite:PATH, a file's path or "
                + "postgres://…, not 'mysql://db/notes'")
    }

    @Test("A start that fails (the port taken) leaves no database file behind")
    func failedStartCreatesNoDatabase() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let running = try ServerProcess(database: database.location)
        defer { running.stop(signal: SIGTERM) }
        let other = try TemporaryDatabase()
        defer { other.remove() }
        let result = try CommandRunner.run(
            "mynotes-server", ["--port", String(running.port), "--database", other.location])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("mynotes-server: "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.directory.path) == [])

        // An existing database is kept, of course
        let kept = try CommandRunner.run(
            "mynotes-server", ["--port", String(running.port), "--database", database.location])
        #expect(kept.status == 1)
        #expect(FileManager.default.fileExists(atPath: path(database)))
    }

    @Test("mynotes-server accounts --help is the accounts group's help")
    func accountsHelp() throws {
        for arguments in [["accounts", "--help"], ["accounts", "-h"], ["help", "accounts"]] {
            let result = try CommandRunner.run("mynotes-server", arguments)
            #expect(result.status == 0)
            #expect(result.standardOutput.hasPrefix("Manage the accounts in the database.\n"))
            #expect(
                result.standardOutput.contains("Usage: mynotes-server accounts COMMAND"),
                "\(arguments)")
            #expect(!result.standardOutput.contains("--legacy-email-auth"))
        }
    }

    @Test("An email with control characters is escaped in the error on a terminal")
    func escapesOnATerminal() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let terminal = try PseudoTerminal(
            "mynotes-server", ["accounts", "add", "a\u{1B}[31mb@x.org", "-d", database.location],
            environment: ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"])
        let (status, output) = await terminal.finish()
        #expect(status == 1)
        #expect(output.contains("mynotes-server: invalid email 'a\\u{1B}[31mb@x.org'"), "\(output)")
        #expect(!output.contains("\u{1B}"))
    }
}
