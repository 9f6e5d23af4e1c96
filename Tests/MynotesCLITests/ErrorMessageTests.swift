import Foundation
import MyNotesKit
import MyNotesTesting
import Testing

/// Failures say what to do, name the server or the file,
/// and never show an internal error's dump.
@Suite("mynotes error messages people can act on")
struct ErrorMessageTests {
    @Test(
        "A note longer than the server takes is refused before sending, with the limit",
        arguments: ["legacy", "rest"])
    func tooLongNote(api: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var cli = try CLI.account(on: server)
        defer { cli.remove() }
        cli.environment["MYNOTES_API"] = api
        let output = await cli.run(["add", String(repeating: "x", count: 70_000)])
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "mynotes: the note is 70,000 bytes long; the server takes at most 65,536 bytes (UTF-8)\n"
        )
        // 1.1 MB through standard input: the same message, not HTTP 413
        let huge = await cli.run(["add", "-"], input: String(repeating: "y", count: 1_100_000))
        #expect(huge.status == 1)
        #expect(huge.stderr.hasPrefix("mynotes: the note is 1,100,000 bytes long;"))
        #expect(try await ImportExportTests.notes(server, cli).isEmpty)
    }

    @Test("--method get with a note whose URL would be too long says to use --method post")
    func tooLongForGet() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        let note = String(repeating: "&", count: 30_000)
        let output = await cli.run(["add", note, "--method", "get"])
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix("mynotes: the note is too long to send with --method get"))
        #expect(output.stderr.hasSuffix(": use --method post\n"))
        #expect(await cli.run(["add", note, "--method", "post"]).status == 0)
    }

    @Test("The SDK words HTTP 413 and 414 for people")
    func httpLimitsInWords() {
        #expect(
            NotesClientError.http(status: 413, body: "").message(in: .english)
                == "The request was too large for the server (HTTP 413).")
        #expect(
            NotesClientError.http(status: 414, body: "").message(in: .english)
                == "The request's URL was too long for the server (HTTP 414): send it by POST.")
    }

    @Test(
        "Files that cannot be read say why",
        arguments: [
            ("nosuch.xml", "mynotes: cannot read nosuch.xml: No such file or directory\n"),
            ("/tmp", "mynotes: cannot read /tmp: it is a directory, not a file\n"),
        ])
    func unreadableFiles(path: String, expected: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        let output = await cli.run(["import", path], workingIn: cli.home)
        #expect(output.status == 1)
        #expect(output.stderr == expected)
    }

    @Test(
        "Broken files are described in words, not with a parser's error dump",
        arguments: [
            (
                "<Notes><Note>",
                "not valid XML at line 1, column 14: the document ends before its root element does"
            ),
            ("<Notes><a></b></Notes>", "an end tag does not match the element it closes"),
            ("{\"Record\": [", "not valid JSON"),
        ])
    func brokenFiles(text: String, expected: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        let file = try cli.write(text, to: "broken")
        let output = await cli.run(["import", file.path])
        #expect(output.status == 1)
        #expect(output.stderr.contains(expected), "\(output.stderr)")
        for dump in ["Error Domain", "NSXMLParserErrorDomain", "(null)", "Code="] {
            #expect(!output.stderr.contains(dump), "\(output.stderr)")
        }
    }

    @Test(
        "A broken config file is described in words",
        arguments: [
            ("{", "it is not valid JSON"),
            (#"{"email":"a@example.com"}"#, "'server' is missing"),
            (#"{"server":5,"email":"a@example.com"}"#, "'server' has a value of the wrong kind"),
        ])
    func brokenConfig(text: String, reason: String) async throws {
        let cli = CLI()
        defer { cli.remove() }
        let directory = cli.home.appendingPathComponent("config/mynotes")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("config.json")
        try Data(text.utf8).write(to: config)
        let output = await cli.run(["list"])
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "mynotes: cannot read \(config.path): \(reason); fix it, or remove it and run "
                + "'mynotes login' again\n")
    }

    @Test("Connection failures name the server: a closed port, an unknown host, a wrong path")
    func connectionFailuresNameTheServer() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }

        let wrongPath = server.baseURL.appendingPathComponent("wrong/").absoluteString
        let notFound = await cli.run(["list", "--server", wrongPath])
        #expect(notFound.status == 1)
        #expect(
            notFound.stderr
                == "mynotes: \(wrongPath) answered HTTP 404 (not found): it does not look like a "
                + "MyNotes server's address (check --server).\n")

        let unknown = await cli.run(
            ["list", "--server", "http://nosuch.invalid/", "--timeout", "20"])
        #expect(unknown.status == 1)
        #expect(
            unknown.stderr
                == "mynotes: Could not find the server nosuch.invalid: no such host name "
                + "(--server http://nosuch.invalid/).\n")
    }

    @Test("login --api rest for an account made by 'accounts add' points to set-password")
    func loginWithoutPassword() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var cli = try CLI.account(on: server)
        defer { cli.remove() }
        cli.environment["MYNOTES_TOKEN"] = nil
        let output = await cli.run(["login", "--api", "rest"], input: "a guess\n")
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "mynotes: Wrong email or password. (ResultCode -9)\n"
                + "An account made with 'mynotes-server accounts add' has no password until "
                + "'mynotes-server accounts set-password ann@example.com' is run on the server; "
                + "or log in with its token (--token).\n")
    }

    @Test("signup without --email asks for it: the line before the password from a pipe")
    func signupAsksForTheEmail() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = CLI(server: server)
        defer { cli.remove() }
        let output = await cli.run(["signup"], input: "new@example.com\ncorrect horse battery\n")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("Signed up as new@example.com. Saved to "))
        #expect(try RESTCommandsTests.config(cli)["email"] == "new@example.com")
    }

    @Test("signup without --email on a terminal: 'Email: ' shown, what is typed echoed")
    func signupAsksForTheEmailOnATerminal() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = CLI(server: server)
        defer { cli.remove() }
        let terminal = try PseudoTerminal("mynotes", ["signup"], environment: cli.environment)
        #expect(await terminal.waitFor("Email: "))
        terminal.type("tty@example.com\n")
        for prompt in ["New password for tty@example.com: ", "Repeat the password: "] {
            #expect(await terminal.waitFor(prompt))
            try Poll.until("the terminal to stop echoing", timeout: .seconds(10)) {
                !terminal.echoes
            }
            terminal.type("correct horse battery\n")
        }
        let (status, output) = await terminal.finish()
        #expect(status == 0, "\(output)")
        #expect(output.contains("Email: tty@example.com"))
        #expect(output.contains("Signed up as tty@example.com."))
        #expect(!output.contains("correct horse"))
    }

    @Test("login --api legacy: an empty answer to the token prompt saves no token")
    func emptyTokenAnswer() async throws {
        let server = try TestServer(.init(auth: .legacyEmail))
        defer { server.shutdown() }
        let token = try server.createAccount(email: "ann@example.com")
        let cli = CLI()
        defer { cli.remove() }
        let options = ["--server", server.baseURL.absoluteString, "--email", "ann@example.com"]
        #expect(await cli.run(["login"] + options, input: token + "\n").status == 0)
        #expect(try RESTCommandsTests.config(cli)["token"] == token)

        let output = await cli.run(["login", "--api", "legacy"] + options, input: "\n")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try RESTCommandsTests.config(cli)["token"] == nil)
    }
}
