import Foundation
import MyNotesTesting
import Testing

/// The note commands against the real server, with their exact output.
@Suite("mynotes note commands")
struct NoteCommandsTests {
    /// A fresh server, so that note IDs start at 1 and the output is the same every run;
    /// `api` is the CLI's `MYNOTES_API` (none: the default, legacy).
    static func seeded(api: String? = nil) async throws -> (TestServer, CLI) {
        let server = try TestServer()
        var cli = try CLI.account(on: server)
        cli.environment["MYNOTES_API"] = api
        for (text, date) in [
            ("Buy milk", "2026-11-27"),
            ("买牛奶和面包，还有鸡蛋和水果", "2026-11-28 09:15"),
            ("Party 😀🎉 at Ann's & Bob's, bring 100% fun", "2026-11-29 18:00:30"),
            ("line one\nline two", "2026-11-30"),
        ] {
            let output = await cli.run(["add", text, "--date", date])
            #expect(output.status == 0, "\(output.stderr)")
        }
        return (server, cli)
    }

    @Test("list: a table that respects double-width characters and the width (golden)")
    func table() async throws {
        let (server, cli) = try await Self.seeded()
        defer { server.shutdown() }
        let output = await cli.run(["list"], extra: ["COLUMNS": "52"])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                ID  DATE                 CONTENT
                 4  2026-11-30           line one↵line two
                 3  2026-11-29 18:00:30  Party 😀🎉 at Ann's & Bob'…
                 2  2026-11-28 09:15:00  买牛奶和面包，还有鸡蛋和水…
                 1  2026-11-27           Buy milk

                """)
        for line in output.stdout.split(separator: "\n") {
            #expect(String(line).displayColumns <= 52, "\(line)")
        }
    }

    @Test("list without a width limit prints whole contents")
    func tableUnlimited() async throws {
        let (server, cli) = try await Self.seeded()
        defer { server.shutdown() }
        let output = await cli.run(["list"])
        #expect(
            output.stdout.contains(
                " 3  2026-11-29 18:00:30  Party 😀🎉 at Ann's & Bob's, bring 100% fun\n"))
    }

    @Test("list --format json, the option written four ways (golden)")
    func json() async throws {
        let (server, cli) = try await Self.seeded()
        defer { server.shutdown() }
        for format in [["--format", "json"], ["--format=json"], ["-f", "json"], ["-f=json"]] {
            let output = await cli.run(["list"] + format)
            #expect(output.status == 0, "\(format): \(output.stderr)")
            #expect(output.stdout == Self.jsonGolden, "\(format)")
        }
    }

    static let jsonGolden = """
        {"Record":[
        {"ID":4,"CDate":"2026-11-30","Content":"line one\\nline two"},
        {"ID":3,"CDate":"2026-11-29 18:00:30","Content":"Party 😀🎉 at Ann's & Bob's, bring 100% fun"},
        {"ID":2,"CDate":"2026-11-28 09:15:00","Content":"买牛奶和面包，还有鸡蛋和水果"},
        {"ID":1,"CDate":"2026-11-27","Content":"Buy milk"}
        ]}

        """

    @Test("list --format xml (golden)")
    func xml() async throws {
        let (server, cli) = try await Self.seeded()
        defer { server.shutdown() }
        let output = await cli.run(["list", "--format", "xml", "--wire", "xml"])
        #expect(
            output.stdout == """
                <?xml version="1.0" encoding="UTF-8"?>
                <Notes>
                <Note id="4"><CDate>2026-11-30</CDate><Content>line one
                line two</Content><UserID>ann@example.com</UserID></Note>
                <Note id="3"><CDate>2026-11-29 18:00:30</CDate><Content>Party 😀🎉 at Ann's &amp; Bob's, bring 100% fun</Content><UserID>ann@example.com</UserID></Note>
                <Note id="2"><CDate>2026-11-28 09:15:00</CDate><Content>买牛奶和面包，还有鸡蛋和水果</Content><UserID>ann@example.com</UserID></Note>
                <Note id="1"><CDate>2026-11-27</CDate><Content>Buy milk</Content><UserID>ann@example.com</UserID></Note>
                </Notes>

                """)
    }

    @Test("show, edit (keeping the date), search, rm")
    func lifecycle() async throws {
        let (server, cli) = try await Self.seeded()
        defer { server.shutdown() }
        let shown = await cli.run(["show", "4"])
        #expect(shown.stdout == "ID:      4\nDate:    2026-11-30\nContent:\nline one\nline two\n")

        #expect(await cli.run(["edit", "2", "Milk & bread"]).stdout == "Updated note 2.\n")
        #expect(
            await cli.run(["show", "2"]).stdout.hasPrefix(
                "ID:      2\nDate:    2026-11-28 09:15:00\n"))

        let found = await cli.run(["search", "MILK"])
        #expect(found.stdout.contains(" 2  2026-11-28 09:15:00  Milk & bread\n"))
        #expect(found.stdout.contains(" 1  2026-11-27           Buy milk\n"))
        #expect(!found.stdout.contains("Party"))
        #expect(
            await cli.run(["search", "milk", "bread"]).stdout.split(separator: "\n").count == 2)

        #expect(await cli.run(["rm", "1"]).stdout == "Removed note 1.\n")
        #expect(!(await cli.run(["list"]).stdout.contains("Buy milk")))
    }

    @Test("'--' ends the options, so a note may start with '-'")
    func dashText() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        #expect(
            await cli.run(["add", "--date", "2026-01-01", "--", "-5 °C --tonight"]).stdout
                == "Added note 1.\n")
        #expect(await cli.run(["show", "1"]).stdout.hasSuffix("Content:\n-5 °C --tonight\n"))
    }

    // The last line break of standard input is dropped (it used to be
    // kept), so the input here ends with one more line break than the note.
    @Test("add - reads the note from standard input, CRLF included, without its last line break")
    func addFromStandardInput() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let text = "first line\r\nsecond & third + %41\n"
        #expect(
            await cli.run(["add", "-", "--date", "2026-01-01"], input: text + "\n").stdout
                == "Added note 1.\n")
        for wire in ["json", "xml"] {
            let shown = await cli.run(["show", "1", "--wire", wire])
            #expect(shown.stdout == "ID:      1\nDate:    2026-01-01\nContent:\n\(text)\n")
        }
    }

    @Test(
        "Server errors print in the user's language and exit 1",
        arguments: [
            ("en_US.UTF-8", "mynotes: No such note. (ResultCode -7)\n"),
            ("zh_CN.UTF-8", "mynotes: 没有数据。 (ResultCode -7)\n"),
            ("zh_TW.UTF-8", "mynotes: 没有数据。 (ResultCode -7)\n"),
            ("C", "mynotes: No such note. (ResultCode -7)\n"),
        ])
    func localizedErrors(lang: String, expected: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let output = await cli.run(["rm", "999"], extra: ["LANG": lang])
        #expect(output.status == 1)
        #expect(output.stderr == expected)
    }

    @Test("LC_ALL wins over LANG, as POSIX says")
    func lcAll() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let output = await cli.run(
            ["list", "--token", "wrong"], extra: ["LANG": "en_US.UTF-8", "LC_ALL": "zh_CN.UTF-8"])
        #expect(output.status == 1)
        #expect(output.stderr == "mynotes: 身份验证失败。 (ResultCode -9)\n")
    }

    @Test("Server down: exit 1 with the reason")
    func serverDown() async throws {
        let closed = ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let address = closed.url.absoluteString
        let cli = CLI(email: "ann@example.com", token: "a-token")
        let output = await cli.run(["list", "--timeout", "5"], extra: ["MYNOTES_SERVER": address])
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "mynotes: Could not connect to the server at \(address): "
                + "nothing answers there, or it cannot be reached.\n")
    }

    @Test("No configuration at all: exit 1, saying how to configure")
    func unconfigured() async {
        let output = await CLI().run(["list"])
        #expect(output.status == 1)
        #expect(
            output.stderr.contains(
                "no server: give --server URL, set MYNOTES_SERVER, or run 'mynotes login'"))
    }

    @Test("Flags override the environment")
    func flagsOverrideEnvironment() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let token = try server.createAccount(email: "flag@example.com")
        let cli = CLI(server: server, email: "other@example.com", token: "wrong")
        let output = await cli.run(["list", "--email", "flag@example.com", "--token", token])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "No notes.\n")
    }

    @Test("login checks the credentials, saves them with mode 0600, and later commands use them")
    func login() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let token = try server.createAccount(email: "ann@example.com")
        let cli = CLI()
        let configFile = cli.home.appendingPathComponent("config/mynotes/config.json")

        let refused = await cli.run(
            [
                "login", "--server", server.baseURL.absoluteString, "--email", "ann@example.com",
                "--token", "bad",
            ])
        #expect(refused.status == 1)
        #expect(!FileManager.default.fileExists(atPath: configFile.path))

        let login = await cli.run(
            ["login", "--server", server.baseURL.absoluteString, "--email", "ann@example.com"],
            input: token + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: configFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        #expect(await cli.run(["add", "from config", "--date", "2026-01-01"]).status == 0)
        #expect(await cli.run(["list"]).stdout.contains("from config"))
    }

    @Test("Email-only servers need no token")
    func emailOnly() async throws {
        let server = try TestServer(.init(auth: .legacyEmail))
        defer { server.shutdown() }
        try server.createAccount(email: "book@example.com")
        let cli = CLI(server: server, email: "book@example.com")
        #expect(await cli.run(["add", "book mode", "--date", "2026-01-01"]).status == 0)
        #expect(await cli.run(["list"]).stdout.contains("book mode"))
    }

    static let combinations = ["async", "callback", "sync"].flatMap { style in
        ["get", "post"].flatMap { method in ["json", "xml"].map { [style, method, $0] } }
    }

    @Test("Every --style × --method × --wire gives the same results", arguments: combinations)
    func styles(combination: [String]) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let options = [
            "--style", combination[0], "--method", combination[1], "--wire", combination[2],
        ]
        let note = "a&b=c+d %41 😀 日本"
        #expect(
            await cli.run(["add", note, "--date", "2026-05-05 05:05"] + options).stdout
                == "Added note 1.\n")
        #expect(await cli.run(["edit", "1", note + "!"] + options).status == 0)
        let listed = await cli.run(["list", "--format", "json"] + options)
        #expect(
            listed.stdout
                == "{\"Record\":[\n{\"ID\":1,\"CDate\":\"2026-05-05 05:05:00\",\"Content\":\"\(note)!\"}\n]}\n"
        )
        let missing = await cli.run(["rm", "2"] + options)
        #expect(missing.status == 1)
        #expect(missing.stderr == "mynotes: No such note. (ResultCode -7)\n")
        #expect(await cli.run(["rm", "1"] + options).status == 0)
    }
}

extension String {
    /// Terminal columns, counted independently of the CLI's own code: East Asian wide
    /// and emoji take two, everything else here one.
    var displayColumns: Int {
        reduce(0) { total, character in
            let scalar = character.unicodeScalars.first!.value
            let wide =
                (0x1100...0x115F).contains(scalar) || (0x2E80...0xA4CF).contains(scalar)
                || (0xAC00...0xD7A3).contains(scalar) || (0xFF00...0xFF60).contains(scalar)
                || (0x1F300...0x1FAFF).contains(scalar)
            return total + (wide ? 2 : 1)
        }
    }
}
