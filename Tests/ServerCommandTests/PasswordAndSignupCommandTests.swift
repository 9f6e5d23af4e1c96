import Foundation
import MyNotesTesting
import Testing

/// `accounts set-password` and `serve --no-signup`, run as the operator runs them, with
/// the result checked over HTTP against a server process on the same database.
@Suite struct PasswordAndSignupCommandTests {
    func post(_ path: String, _ json: String, port: Int) throws -> RawHTTPClient.Response {
        let request =
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)"
        return try RawHTTPClient(port: port).send(request)
    }

    @Test func setPasswordFromStandardInputLetsTheAccountSignIn() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let db = ["--database", database.location]
        #expect(
            try CommandRunner.run("mynotes-server", ["accounts", "add", "ann@example.com"] + db)
                .status == 0)
        let set = try CommandRunner.run(
            "mynotes-server", ["accounts", "set-password", "ann@example.com"] + db,
            input: "new password 1\n")
        #expect(set.status == 0)
        #expect(set.standardOutput == "Password set for ann@example.com.\n")
        let server = try ServerProcess(database: database.location)
        defer { server.stop(signal: SIGTERM) }
        let right = try post(
            "/api/v1/sessions", #"{"email":"ann@example.com","password":"new password 1"}"#,
            port: server.port)
        #expect(right.status == 201)
        let wrong = try post(
            "/api/v1/sessions", #"{"email":"ann@example.com","password":"new password 1\n"}"#,
            port: server.port)
        #expect(wrong.status == 401)
    }

    @Test(arguments: [
        ("ann@example.com", "short\n", "fewer than 8 characters"),
        ("nobody@example.com", "long enough\n", "no account with email nobody@example.com"),
        ("ann@example.com", "", "no password on standard input"),
    ])
    func setPasswordRefusesWithOneLineAndStatus1(email: String, input: String, message: String)
        throws
    {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let db = ["--database", database.location]
        _ = try CommandRunner.run("mynotes-server", ["accounts", "add", "ann@example.com"] + db)
        let result = try CommandRunner.run(
            "mynotes-server", ["accounts", "set-password", email] + db, input: input)
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.standardError.hasPrefix("mynotes-server: "))
        #expect(result.standardError.contains(message))
    }

    /// Standard input that is neither a terminal nor a pipe or file (here /dev/null):
    /// echo cannot be turned off, so the password is not asked for at all.
    @Test func setPasswordFailsClearlyWithoutATerminal() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let db = ["--database", database.location]
        _ = try CommandRunner.run("mynotes-server", ["accounts", "add", "ann@example.com"] + db)
        let process = ChildProcess()
        process.executableURL = CommandRunner.executable("mynotes-server")
        process.arguments = ["accounts", "set-password", "ann@example.com"] + db
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        let (output, error) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let errors = ReadAll(error.fileHandleForReading)
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(printed.isEmpty)
        #expect(
            String(decoding: errors.wait(), as: UTF8.self)
                == "mynotes-server: cannot ask for the password without echo: standard input is "
                + "not a terminal, a pipe or a file (Inappropriate ioctl for device)\n")
    }

    @Test func noSignupRefusesNewAccountsButNotSignIn() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let db = ["--database", database.location]
        _ = try CommandRunner.run("mynotes-server", ["accounts", "add", "ann@example.com"] + db)
        _ = try CommandRunner.run(
            "mynotes-server", ["accounts", "set-password", "ann@example.com"] + db,
            input: "password 123\n")
        let server = try ServerProcess(database: database.location, arguments: ["--no-signup"])
        defer { server.stop(signal: SIGTERM) }
        let signUp = try post(
            "/api/v1/accounts", #"{"email":"bob@example.com","password":"password 123"}"#,
            port: server.port)
        #expect(signUp.status == 403)
        #expect(signUp.header("Content-Type") == "application/problem+json; charset=utf-8")
        let signIn = try post(
            "/api/v1/sessions", #"{"email":"ann@example.com","password":"password 123"}"#,
            port: server.port)
        #expect(signIn.status == 201)
    }

    /// On a terminal the password is asked twice and never shown.
    @Test func setPasswordOnATerminalAsksTwiceWithoutEcho() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let db = ["--database", database.location]
        _ = try await CommandRunner.run(
            "mynotes-server", ["accounts", "add", "ann@example.com"] + db)
        let (status, output) = try await PseudoTerminal.run(
            "mynotes-server", ["accounts", "set-password", "ann@example.com"] + db,
            answering: [
                ("New password for ann@example.com: ", "typed secret 1"),
                ("Repeat the password: ", "typed secret 1"),
            ])
        #expect(status == 0)
        #expect(output.contains("Password set for ann@example.com."))
        #expect(!output.contains("typed secret"))
        let server = try ServerProcess(database: database.location)
        defer { server.stop(signal: SIGTERM) }
        let signIn = try post(
            "/api/v1/sessions", #"{"email":"ann@example.com","password":"typed secret 1"}"#,
            port: server.port)
        #expect(signIn.status == 201)
    }

    @Test func setPasswordOnATerminalRefusesTwoDifferentAnswers() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let db = ["--database", database.location]
        _ = try await CommandRunner.run(
            "mynotes-server", ["accounts", "add", "ann@example.com"] + db)
        let (status, output) = try await PseudoTerminal.run(
            "mynotes-server", ["accounts", "set-password", "ann@example.com"] + db,
            answering: [
                ("New password for", "first answer"), ("Repeat the password: ", "second answer"),
            ])
        #expect(status == 1)
        #expect(output.contains("the passwords do not match"))
    }
}
