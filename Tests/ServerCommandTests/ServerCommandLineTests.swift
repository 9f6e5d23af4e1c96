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
        #expect(result.standardOutput.contains("\nUsage: mynotes-server "))
        #expect(result.standardError.isEmpty)
        // `help CMD` shows the same help as `CMD --help`.
        let words = arguments.filter { !$0.hasPrefix("-") }
        #expect(try run(["help"] + words).standardOutput == result.standardOutput)
    }

    @Test func generatesTheHelpOfASubcommand() throws {
        let result = try run(["accounts", "add", "--help"])
        #expect(
            result.standardOutput == """
                Create an account and print its access token.

                Usage: mynotes-server accounts add EMAIL [options]

                Creates an account and prints its access token alone on the last line.
                The token is shown only now; the server keeps only its hash.

                Options:
                  -d, --database sqlite:PATH  The database, sqlite:PATH or a plain PATH, or postgres://USER@HOST:PORT/DB (env MYNOTES_DATABASE; default sqlite:./mynotes.sqlite).
                  --help                      Show this help.

                """)
        let serve = try run(["serve", "--help"]).standardOutput
        #expect(serve.contains("Usage: mynotes-server [serve] [options]"))
        for option in [
            "--host H", "-p, --port P", "-d, --database sqlite:PATH", "--threads N",
            "--legacy-email-auth", "--no-signup", "--quota N", "--max-body BYTES",
            "--idle-timeout SECONDS",
        ] {
            #expect(serve.contains("\n  \(option)  "), "\(option)")
        }
    }

    @Test(arguments: [["--version"], ["version"]])
    func printsTheVersion(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 0)
        #expect(result.standardOutput == "mynotes-server 1.0.0\n")
        #expect(result.standardError.isEmpty)
    }

    @Test(arguments: [
        (["help", "nosuch"], "unknown command 'nosuch'", "help"),
        (["help", "accounts", "nosuch"], "unknown command 'accounts nosuch'", "help accounts"),
    ])
    func refusesHelpForAnUnknownCommand(arguments: [String], message: String, hint: String) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(
            result.standardError == "mynotes-server: \(message)\nTry 'mynotes-server \(hint)'.\n")
    }

    /// Options written `-x=v`, `-x v`, `--x=v` and `--x v` all reach the command.
    @Test func takesValuesInEveryForm() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        for (index, db) in [
            ["-d=\(database.location)"], ["-d", database.location],
            ["--database=\(database.location)"], ["--database", database.location],
        ].enumerated() {
            #expect(try run(["accounts", "add", "user\(index)@example.com"] + db).status == 0)
        }
        #expect(try run(["accounts", "list", "-d=\(database.location)"]).outputLines.count == 4)
        let port = try run(["-p=70000"])
        #expect(port.status == 2)
        #expect(port.errorLines.first?.contains("option '--port' must be a whole number") == true)
    }

    /// A usage error: `mynotes-server: message`, then the help to read.
    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'", "help serve"),
        (
            ["serve", "--port", "http"],
            "option '--port' must be a whole number from 0 to 65535, not 'http'", "help serve"
        ),
        (
            ["--port", "70000"],
            "option '--port' must be a whole number from 0 to 65535, not '70000'",
            "help serve"
        ),
        (
            ["--threads", "0"], "option '--threads' must be a whole number from 1 to 1024, not '0'",
            "help serve"
        ),
        (
            ["--quota", "-1"],
            "option '--quota' must be a whole number from 0 to 2147483647, not '-1'", "help serve"
        ),
        (["--port"], "option '--port' needs a value", "help serve"),
        (["--host="], "option '--host' must be an address, not ''", "help serve"),
        (
            ["--database", "mysql://db"],
            "option '--database' must be sqlite:PATH, a file's path or postgres://…, not 'mysql://db'",
            "help serve"
        ),
        (["--legacy-email-auth=yes"], "option '--legacy-email-auth' takes no value", "help serve"),
        (
            ["--auth-rate-limits", "none"],
            "option '--auth-rate-limits' must be standard or unlimited, not 'none'", "help serve"
        ),
        (["srve"], "unknown command 'srve'", "help"),
        (["accounts", "add"], "missing EMAIL", "help accounts add"),
        (["accounts", "add", "a@x", "b@x"], "unexpected argument 'b@x'", "help accounts add"),
        (["accounts", "list", "x"], "unexpected argument 'x'", "help accounts list"),
        (["accounts", "frobnicate"], "unknown command 'accounts frobnicate'", "help accounts"),
    ])
    func refusesUsageErrorsWithAHintAndStatus2(arguments: [String], message: String, hint: String)
        throws
    {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(
            result.errorLines == ["mynotes-server: \(message)", "Try 'mynotes-server \(hint)'."])
        #expect(result.standardOutput.isEmpty)
    }

    @Test func printsTheHelpOfAGroupNamedWithoutACommandAsAUsageError() throws {
        let result = try run(["accounts"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("Usage: mynotes-server accounts COMMAND"))
        #expect(result.standardError.contains("\n  set-password  "))
    }

    @Test func reportsADatabaseThatCannotBeOpenedWithStatus1() throws {
        let result = try run(["accounts", "list", "--database", "sqlite:/nonexistent-dir/x.sqlite"])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(
            result.standardError.hasPrefix(
                "mynotes-server: cannot open database /nonexistent-dir/x.sqlite"))
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
        // Stored normalized: the domain lower-cased, the local part as typed.
        #expect(
            listed.outputLines.map { $0.split(separator: "\t")[0] } == [
                "Ann@example.com", "bob@example.com",
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
