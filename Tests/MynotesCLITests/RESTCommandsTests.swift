import Foundation
import MyNotesTesting
import Testing

/// The CLI over REST API v1 (`--api rest`), against the real server, with exact output.
@Suite("mynotes over the REST API")
struct RESTCommandsTests {
    static let password = "correct horse battery"

    /// A fresh server (note IDs from 1) and a CLI using REST with a token account.
    static func seeded() async throws -> (TestServer, CLI) {
        try await NoteCommandsTests.seeded(api: "rest")
    }

    static func config(_ cli: CLI) throws -> [String: String] {
        let url = cli.home.appendingPathComponent("config/mynotes/config.json")
        return try JSONDecoder().decode([String: String].self, from: Data(contentsOf: url))
    }

    @Test("signup, logout, login with a password, a wrong password (goldens)")
    func accountFlow() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = CLI(server: server)
        defer { cli.remove() }
        let configPath = cli.home.appendingPathComponent("config/mynotes/config.json").path

        // signup reads the password from standard input when it is not a terminal
        let signup = await cli.run(
            ["signup", "--email", "ann@example.com"], input: Self.password + "\n")
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(signup.stdout == "Signed up as ann@example.com. Saved to \(configPath).\n")
        #expect(signup.stderr.isEmpty)
        var saved = try Self.config(cli)
        let firstToken = try #require(saved["token"])
        #expect(
            saved == [
                "api": "rest", "server": server.baseURL.absoluteString, "email": "ann@example.com",
                "token": firstToken,
            ])
        let mode = try FileManager.default.attributesOfItem(atPath: configPath)[.posixPermissions]
        #expect(mode as? Int == 0o600)

        // Later commands use REST from the config file, and the legacy API takes the same token
        #expect(
            await cli.run(["add", "über 牛奶", "--date", "2026-01-01"]).stdout == "Added note 1.\n")
        #expect(await cli.run(["list", "--api", "legacy"]).stdout.contains("über 牛奶"))

        // The same email again: 409, in the user's language
        let again = await cli.run(
            ["signup", "--email", "ann@example.com"], input: Self.password + "\n",
            extra: ["LANG": "zh_CN.UTF-8"])
        #expect(again.status == 1)
        #expect(again.stderr == "mynotes: 该邮箱已注册。\n")

        // logout revokes the token and removes it from the file
        let logout = await cli.run(["logout"])
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(logout.stdout == "Logged out. Removed the token from \(configPath).\n")
        saved = try Self.config(cli)
        #expect(saved["token"] == nil)
        #expect(saved["api"] == "rest")
        let revoked = await cli.run(["list", "--token", firstToken])
        #expect(revoked.status == 1)
        #expect(revoked.stderr == "mynotes: Authentication failed. (ResultCode -9)\n")
        let noToken = await cli.run(["list"])
        #expect(noToken.status == 1)
        #expect(noToken.stderr.contains("no token"))

        // login: a wrong password, then the right one
        let wrong = await cli.run(["login", "--api", "rest"], input: "not it\n")
        #expect(wrong.status == 1)
        #expect(
            wrong.stderr == "mynotes: Wrong email or password. (ResultCode -9)\n"
                + "An account made with 'mynotes-server accounts add' has no password until "
                + "'mynotes-server accounts set-password ann@example.com' is run on the server; "
                + "or log in with its token (--token).\n")
        let login = await cli.run(["login", "--api", "rest"], input: Self.password + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout == "Logged in as ann@example.com. Saved to \(configPath).\n")
        let newToken = try #require(try Self.config(cli)["token"])
        #expect(newToken != firstToken)
        #expect(await cli.run(["list"]).stdout.contains("über 牛奶"))
    }

    @Test("logout with the legacy API only forgets the token, which stays valid")
    func legacyLogout() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let token = try server.createAccount(email: "cy@example.com")
        let cli = CLI(server: server, email: "cy@example.com")
        defer { cli.remove() }
        #expect(await cli.run(["login", "--token", token]).status == 0)
        let logout = await cli.run(["logout"])
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(logout.stdout.hasPrefix("Logged out. Removed the token from "))
        #expect(try Self.config(cli)["token"] == nil)
        #expect(await cli.run(["list", "--token", token]).status == 0)
        let again = await cli.run(["logout"])
        #expect(again.status == 1)
        #expect(again.stderr == "mynotes: not logged in: no token\n")
    }

    @Test("On a terminal the password is asked twice at signup, once at login, never echoed")
    func terminalPrompts() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = CLI(server: server, email: "tty@example.com")
        defer { cli.remove() }
        let secret = "s3cret-Ünïcode-密码"

        let newPassword = "New password for tty@example.com: "
        let refused = try await PseudoTerminal.run(
            "mynotes", ["signup"], environment: cli.environment,
            answering: [(newPassword, secret), ("Repeat the password: ", "something else")])
        #expect(refused.status == 1)
        // The terminal shows "mynotes:" in colour: the message follows it.
        #expect(refused.output.contains("the passwords do not match"))
        #expect(!refused.output.contains(secret) && !refused.output.contains("something else"))

        let created = try await PseudoTerminal.run(
            "mynotes", ["signup"], environment: cli.environment,
            answering: [(newPassword, secret), ("Repeat the password: ", secret)])
        #expect(created.status == 0, "\(created.output)")
        #expect(created.output.contains("Signed up as tty@example.com."))
        #expect(!created.output.contains(secret))

        let loggedIn = try await PseudoTerminal.run(
            "mynotes", ["login", "--api", "rest"], environment: cli.environment,
            answering: [("Password for tty@example.com: ", secret)])
        #expect(loggedIn.status == 0, "\(loggedIn.output)")
        #expect(loggedIn.output.contains("Logged in as tty@example.com."))
        #expect(!loggedIn.output.contains(secret))
    }

    @Test(
        "Without a terminal, pipe or file to read it from, no password is asked for",
        arguments: [["signup"], ["login", "--api", "rest"]])
    func promptWithoutATerminal(arguments: [String]) async throws {
        // Never contacted: the command fails before it speaks to the server.
        var cli = CLI(email: "ann@example.com")
        cli.environment["MYNOTES_SERVER"] = "http://127.0.0.1:9"
        defer { cli.remove() }
        let output = await cli.run(
            arguments, standardInput: FileHandle(forReadingAtPath: "/dev/null"))
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(
            output.stderr
                == "mynotes: cannot ask for the password without echo: standard input is not a "
                + "terminal, a pipe or a file (Inappropriate ioctl for device)\n")
    }

    @Test("signup refuses a short password with the server's reason")
    func shortPassword() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = CLI(server: server, email: "bob@example.com")
        defer { cli.remove() }
        let output = await cli.run(["signup"], input: "short\n")
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "mynotes: Field 'password' needs at least 8 characters. (ResultCode -8)\n")
    }

    @Test("list over REST: the same table as the legacy API (golden)")
    func list() async throws {
        let (server, cli) = try await Self.seeded()
        defer { server.shutdown() }
        let expected = """
            ID  DATE                 CONTENT
             4  2026-11-30           line one↵line two
             3  2026-11-29 18:00:30  Party 😀🎉 at Ann's & Bob'…
             2  2026-11-28 09:15:00  买牛奶和面包，还有鸡蛋和水…
             1  2026-11-27           Buy milk

            """
        let output = await cli.run(["list"], extra: ["COLUMNS": "52"])
        #expect(output.status == 0)
        #expect(output.stdout == expected)
        let legacy = await cli.run(["list", "--api", "legacy"], extra: ["COLUMNS": "52"])
        #expect(legacy.stdout == expected)
    }

    @Test("search uses q: CJK, case, several words (goldens)")
    func search() async throws {
        let (server, cli) = try await Self.seeded()
        defer { server.shutdown() }
        let cjk = await cli.run(["search", "牛奶"])
        #expect(cjk.status == 0)
        #expect(
            cjk.stdout == """
                ID  DATE                 CONTENT
                 2  2026-11-28 09:15:00  买牛奶和面包，还有鸡蛋和水果

                """)
        let words = await cli.run(["search", "BOB's", "party"])
        #expect(
            words.stdout == """
                ID  DATE                 CONTENT
                 3  2026-11-29 18:00:30  Party 😀🎉 at Ann's & Bob's, bring 100% fun

                """)
        #expect(await cli.run(["search", "100%", "&"]).stdout.contains(" 3  "))
        #expect(await cli.run(["search", "coffee"]).stdout == "No notes.\n")
        #expect(
            await cli.run(["search", "milk", "--format", "json"]).stdout == """
                {"Record":[
                {"ID":1,"CDate":"2026-11-27","Content":"Buy milk"}
                ]}

                """)
    }

    @Test("show, edit, rm over REST; --api before the command; errors in Chinese")
    func noteCommands() async throws {
        let (server, cli) = try await Self.seeded()
        defer { server.shutdown() }
        let show = await cli.run(["--api", "rest", "show", "4"])
        #expect(show.stdout == "ID:      4\nDate:    2026-11-30\nContent:\nline one\nline two\n")
        #expect(await cli.run(["edit", "4", "edited"]).stdout == "Updated note 4.\n")
        #expect(
            await cli.run(["show", "4"]).stdout
                == "ID:      4\nDate:    2026-11-30\nContent:\nedited\n")
        #expect(await cli.run(["edit", "4", "redated", "--date", "2025-01-01 07:00"]).status == 0)
        #expect(
            await cli.run(["show", "4", "--format", "json"]).stdout.contains(
                #""CDate":"2025-01-01 07:00:00""#))
        #expect(await cli.run(["rm", "4"]).stdout == "Removed note 4.\n")
        let missing = await cli.run(["rm", "4"], extra: ["LANG": "zh_CN.UTF-8"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "mynotes: 没有数据。 (ResultCode -7)\n")
        let wrongAPI = await cli.run(["list"], extra: ["MYNOTES_API": "soap"])
        #expect(wrongAPI.status == 1)
        #expect(wrongAPI.stderr.contains("MYNOTES_API must be one of legacy|rest, not 'soap'"))
    }

    @Test(
        "Every --style gives the same results over REST", arguments: ["async", "callback", "sync"])
    func styles(style: String) async throws {
        let (server, cli) = try await Self.seeded()
        defer { server.shutdown() }
        let baseline = await cli.run(["list"])
        #expect(await cli.run(["list", "--style", style]).stdout == baseline.stdout)
        #expect(await cli.run(["search", "牛奶", "--style", style]).stdout.contains(" 2  "))
        #expect(await cli.run(["add", "styled", "--style", style]).stdout == "Added note 5.\n")
        #expect(await cli.run(["edit", "5", "styled 2", "--style", style]).status == 0)
        #expect(await cli.run(["show", "5", "--style", style]).stdout.hasSuffix("styled 2\n"))
        #expect(await cli.run(["rm", "5", "--style", style]).stdout == "Removed note 5.\n")
        #expect(await cli.run(["list", "--style", style]).stdout == baseline.stdout)
    }

    @Test("signup --help (golden)")
    func signupHelp() async {
        let output = await CLI().run(["signup", "--help"])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                Create an account with a password, and save it as login does.

                Usage: mynotes signup [options]

                Always speaks the REST API, and saves api "rest" with the server, email and new
                token in $XDG_CONFIG_HOME/mynotes/config.json (mode 0600). The password (at least
                8 characters) is asked twice without echo on a terminal; otherwise it is the
                first line of standard input. Without --email the email is asked for first (or
                is the line before the password).

                Options:
                  --help  Show this help.

                Connection options:
                  --server URL       The server (or env MYNOTES_SERVER).
                  --email EMAIL      The account (or env MYNOTES_EMAIL).
                  --timeout SECONDS  How long one request may take (default 30).

                For testing and debugging: --style (see 'mynotes help --man').

                """)
    }
}
