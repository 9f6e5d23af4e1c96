import Foundation
import MyNotesTesting
import Testing

/// `mynotes-server` run as a user runs it: arguments in, exit status and lines out.
@Suite struct ServerCommandLineTests {
    func run(_ arguments: [String], environment: [String: String] = [:]) throws
        -> CommandRunner.Result
    {
        try CommandRunner.run("mynotes-server", arguments, environment: environment)
    }

    @Test(arguments: [
        ["--help"], ["serve", "--help"], ["accounts", "--help"], ["accounts", "add", "--help"],
        ["accounts", "list", "-h"], ["accounts", "remove", "--help"],
        ["accounts", "reset-token", "--help"], ["accounts", "set-password", "--help"],
    ])
    func printsHelpForEveryCommand(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("USAGE: mynotes-server"))
        #expect(result.standardError.isEmpty)
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["serve", "--port", "http"], "invalid value 'http' for '--port'"),
        (["--port", "70000"], "invalid value '70000' for '--port'"),
        (["--threads", "0"], "invalid value '0' for '--threads'"),
        (["--quota", "-1"], "invalid value '-1' for '--quota'"),
        (["--port"], "option '--port' needs a value"),
        (["--database", "postgres://db"], "invalid value 'postgres://db' for '--database'"),
        (["--legacy-email-auth=yes"], "option '--legacy-email-auth' takes no value"),
        (["srve"], "unknown command 'srve'"),
        (["accounts", "add"], "missing EMAIL"),
        (["accounts", "add", "a@x", "b@x"], "unexpected argument 'b@x'"),
        (["accounts", "frobnicate"], "unknown command 'accounts frobnicate'"),
    ])
    func refusesUsageErrorsWithOneLineAndStatus2(arguments: [String], message: String) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.errorLines.count == 1)
        #expect(result.standardError.contains(message))
    }

    @Test func reportsADatabaseThatCannotBeOpenedWithStatus1() throws {
        let result = try run(["accounts", "list", "--database", "sqlite:/nonexistent-dir/x.sqlite"])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.standardError.contains("cannot open database /nonexistent-dir/x.sqlite"))
        let serve = try run(["--port", "0", "--database", "sqlite:/nonexistent-dir/x.sqlite"])
        #expect(serve.status == 1)
        #expect(serve.errorLines.count == 1)
    }

    @Test func managesAccounts() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let db = ["--database", database.location]
        // add prints the token alone on the last line
        let added = try run(["accounts", "add", "Ann@Example.com"] + db)
        #expect(added.status == 0)
        let token = try #require(added.outputLines.last)
        #expect(token.count == 43)
        // a second account with the same email in another case is refused
        let duplicate = try run(["accounts", "add", "ann@example.com"] + db)
        #expect(duplicate.status == 1)
        #expect(duplicate.standardError.contains("already exists"))
        #expect(try run(["accounts", "add", "not-an-email"] + db).status == 1)
        // list shows it, reset-token issues another token
        _ = try run(["accounts", "add", "bob@example.com"] + db)
        let listed = try run(["accounts", "list"] + db)
        #expect(
            listed.outputLines.map { $0.split(separator: "\t")[0] } == [
                "Ann@Example.com", "bob@example.com",
            ])
        let reset = try run(["accounts", "reset-token", "ann@example.com"] + db)
        #expect(reset.status == 0)
        #expect(reset.outputLines.last != token)
        #expect(try run(["accounts", "reset-token", "nobody@example.com"] + db).status == 1)
        // remove takes it away
        #expect(try run(["accounts", "remove", "ANN@example.com"] + db).status == 0)
        #expect(try run(["accounts", "list"] + db).outputLines.count == 1)
        #expect(try run(["accounts", "remove", "ann@example.com"] + db).status == 1)
    }

    @Test func readsTheDatabaseFromTheEnvironment() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let environment = ["MYNOTES_DATABASE": database.location]
        #expect(try run(["accounts", "add", "a@x.org"], environment: environment).status == 0)
        #expect(try run(["accounts", "list"], environment: environment).outputLines.count == 1)
    }
}
