import Foundation
import MyNotesTesting
import Testing

/// What a command-line user expects: `-n`, options before the command, editing only the
/// date, removing several notes, standard input without its last line break, completion,
/// a manual page, colour on a terminal only, and text from elsewhere escaped on a terminal.
@Suite("mynotes as a command-line user expects")
struct CommandLineHabitsTests {
    /// The table rows' IDs.
    static func ids(_ table: String) -> [String] {
        table.split(separator: "\n").dropFirst().map {
            String($0.split(separator: " ").first ?? "")
        }
    }

    @Test("list -n N and --limit N print the newest N only", arguments: ["legacy", "rest"])
    func limit(api: String) async throws {
        let (server, cli) = try await NoteCommandsTests.seeded(api: api)
        defer { server.shutdown() }
        #expect(Self.ids(await cli.run(["list", "-n", "2"]).stdout) == ["4", "3"])
        #expect(Self.ids(await cli.run(["list", "--limit=3"]).stdout) == ["4", "3", "2"])
        #expect(Self.ids(await cli.run(["list", "-n", "9"]).stdout) == ["4", "3", "2", "1"])
        let bad = await cli.run(["list", "-n", "0"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("mynotes: option '--limit' must be a whole number from 1"))
    }

    @Test("list -n over REST fetches pages until it has N")
    func limitAcrossPages() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var cli = try CLI.account(on: server)
        defer { cli.remove() }
        var records: [String] = []
        for index in 1...450 {
            records.append(
                #"{"ID":\#(index),"CDate":"2020-01-01 00:00:00","Content":"n\#(index)"}"#)
        }
        let file = try cli.write("[" + records.joined(separator: ",") + "]", to: "Notes.json")
        #expect(await cli.run(["import", file.path]).status == 0)
        cli.environment["MYNOTES_API"] = "rest"
        let output = await cli.run(["list", "-n", "420", "-f", "json"])
        #expect(output.status == 0)
        #expect(output.stdout.components(separatedBy: "\"Content\"").count - 1 == 420)
        #expect(output.stdout.contains(#""Content":"n450""#))
        #expect(!output.stdout.contains(#""Content":"n30""#))
    }

    @Test(
        "Connection options may come before the command",
        arguments: [
            ["--server", "URL", "list"], ["--server=URL", "list"],
            ["--api", "rest", "--server", "URL", "--timeout", "10", "list"],
        ])
    func optionsBeforeTheCommand(arguments: [String]) async throws {
        let (server, seeded) = try await NoteCommandsTests.seeded()
        defer { server.shutdown() }
        var cli = seeded
        cli.environment["MYNOTES_SERVER"] = nil
        let url = server.baseURL.absoluteString
        let output = await cli.run(
            arguments.map { $0.replacingOccurrences(of: "URL", with: url) })
        #expect(output.status == 0, "\(output.stderr)")
        #expect(Self.ids(output.stdout) == ["4", "3", "2", "1"])
    }

    @Test("edit ID --date changes only the date, over either API", arguments: ["legacy", "rest"])
    func editOnlyTheDate(api: String) async throws {
        let (server, cli) = try await NoteCommandsTests.seeded(api: api)
        defer { server.shutdown() }
        let output = await cli.run(["edit", "2", "--date", "2026-11-02"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "Updated note 2.\n")
        #expect(
            await cli.run(["show", "2"]).stdout
                == "ID:      2\nDate:    2026-11-02\nContent:\n买牛奶和面包，还有鸡蛋和水果\n")
    }

    @Test(
        "rm ID ID… removes each; one missing is named and the others still go",
        arguments: ["legacy", "rest"])
    func removeSeveral(api: String) async throws {
        let (server, cli) = try await NoteCommandsTests.seeded(api: api)
        defer { server.shutdown() }
        let both = await cli.run(["rm", "3", "4"])
        #expect(both.status == 0)
        #expect(both.stdout == "Removed note 3.\nRemoved note 4.\n")
        let mixed = await cli.run(["rm", "1", "99"])
        #expect(mixed.status == 1)
        #expect(mixed.stdout == "Removed note 1.\n")
        #expect(mixed.stderr.hasPrefix("note 99: "))
        #expect(mixed.stderr.hasSuffix("mynotes: 1 of 2 notes were not removed.\n"))
        #expect(Self.ids(await cli.run(["list"]).stdout) == ["2"])
    }

    @Test("Standard input loses its last line break: add -, url encode -")
    func standardInputValue() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        #expect(await cli.run(["url", "encode", "-"], input: "a b\n").stdout == "a%20b\n")
        #expect(await cli.run(["url", "encode", "-"], input: "a b\r\n").stdout == "a%20b\n")
        #expect(await cli.run(["add", "-", "--date", "2026-01-01"], input: "typed\n").status == 0)
        #expect(await cli.run(["add", "-", "--date", "2026-01-02"], input: "two\n\n").status == 0)
        #expect(
            try await ImportExportTests.notes(server, cli).map(\.content) == ["two\n", "typed"])
    }

    @Test("add - on a terminal says how to end the note")
    func addPromptsOnATerminal() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        let terminal = try PseudoTerminal(
            "mynotes", ["add", "-", "--date", "2026-01-01"], environment: cli.environment)
        #expect(await terminal.waitFor("Type the note; end it with Ctrl-D at the start of a line."))
        terminal.type("from the keyboard\n\u{4}")
        let (status, output) = await terminal.finish()
        #expect(status == 0, "\(output)")
        #expect(output.contains("Added note 1."))
        #expect(
            try await ImportExportTests.notes(server, cli).map(\.content) == ["from the keyboard"])
    }

    @Test("url decode %ff: the hint says what --lenient does with bytes that are not UTF-8")
    func decodeHint() async {
        let strict = await CLI().run(["url", "decode", "%ff"])
        #expect(strict.status == 1)
        #expect(
            strict.stderr.hasSuffix(
                "(use --lenient to decode it with U+FFFD for each byte that is not UTF-8)\n"))
        #expect(await CLI().run(["url", "decode", "%ff", "--lenient"]).stdout == "\u{FFFD}\n")
        let truncated = await CLI().run(["url", "decode", "100%"])
        #expect(truncated.stderr.hasSuffix("(use --lenient to keep it as it is)\n"))
        #expect(await CLI().run(["url", "decode", "100%", "--lenient"]).stdout == "100%\n")
    }

    @Test("A command's help names the debugging switches in one line, not as options")
    func debuggingSwitchesOutOfTheWay() async {
        let help = await CLI().run(["list", "--help"]).stdout
        #expect(!help.contains("--style async|callback|sync"))
        #expect(!help.contains("--wire json|xml"))
        #expect(help.contains("\nConnection options:\n  --api legacy|rest"))
        #expect(
            help.contains(
                "\nFor testing and debugging: --method, --wire, --style (see 'mynotes help --man').\n"
            ))
        #expect(await CLI().run(["list", "--style", "sync", "--help"]).status == 0)
    }

    @Test(
        "help --man is a manual page man renders without warnings, for both programs",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")),
        arguments: ["mynotes", "mynotes-server"])
    func manualPage(program: String) async throws {
        let cli = CLI()
        defer { cli.remove() }
        let page = await cli.run(
            ["help", "--man"], executable: CommandRunner.executable(program))
        #expect(page.status == 0)
        #expect(page.stdout.hasPrefix(".TH \(program.uppercased()) 1 "))
        let file = try cli.write(page.stdout, to: "\(program).1")
        let rendered = await cli.run(
            ["-man", "-Tutf8", "-ww", file.path], executable: URL(fileURLWithPath: "/usr/bin/groff")
        )
        #expect(rendered.status == 0)
        #expect(rendered.stderr.isEmpty, "\(rendered.stderr)")
        let text = rendered.stdout.replacingOccurrences(
            of: #".\x08"#, with: "", options: .regularExpression)
        let names =
            program == "mynotes"
            ? ["--limit", "--style", "import FILE"] : ["--database", "accounts add EMAIL"]
        for name in names { #expect(text.contains(name), "\(name)") }
    }

    /// What bash offers for `line` (the last word being completed) with `program`'s script.
    static func bashCompletes(_ program: String, _ words: [String], in directory: URL) async
        -> [String]
    {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let function = "_" + program.replacingOccurrences(of: "-", with: "_")
        let script = """
            cd "$1" && source <("$0" completion bash) && COMP_WORDS=(\(quoted)) && \
            COMP_CWORD=\(words.count - 1) && \(function) && printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = await CLI().run(
            ["-c", script, CommandRunner.executable(program).path, directory.path],
            executable: URL(fileURLWithPath: "/bin/bash"))
        return output.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test(
        "bash completion from 'completion bash': commands, options, values, files",
        arguments: [
            ("mynotes", ["mynotes", "l"], ["list", "login", "logout"]),
            ("mynotes", ["mynotes", "list", "--f"], ["--format"]),
            ("mynotes", ["mynotes", "list", "-f", ""], ["json", "table", "xml"]),
            ("mynotes", ["mynotes", "list", "--api", "r"], ["rest"]),
            ("mynotes", ["mynotes", "--api", "r"], ["rest"]),
            ("mynotes", ["mynotes", "--server", "http://x/", "l"], ["list", "login", "logout"]),
            ("mynotes", ["mynotes", "import", "No"], ["Notes.json"]),
            ("mynotes", ["mynotes", "completion", "z"], ["zsh"]),
            ("mynotes-server", ["mynotes-server", "accounts", "re"], ["remove", "reset-token"]),
            ("mynotes-server", ["mynotes-server", "--log-f"], ["--log-format"]),
            (
                "mynotes-server", ["mynotes-server", "accounts", "add", "x", "-d", "No"],
                ["Notes.json"]
            ),
        ])
    func bashCompletion(program: String, words: [String], expected: [String]) async throws {
        let cli = CLI()
        defer { cli.remove() }
        _ = try cli.write("[]", to: "Notes.json")
        #expect(await Self.bashCompletes(program, words, in: cli.home) == expected)
    }

    @Test("completion zsh and fish come from the same declarations", arguments: ["zsh", "fish"])
    func otherShells(shell: String) async {
        let output = await CLI().run(["completion", shell])
        #expect(output.status == 0)
        #expect(output.stdout.contains("list"))
        #expect(
            output.stdout.contains(shell == "fish" ? "-l limit -s n" : "'list:--limit'|'list:-n'"))
        let unknown = await CLI().run(["completion", "tcsh"])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr
                == "mynotes: SHELL must be one of bash|zsh|fish, not 'tcsh'\nTry 'mynotes help'.\n")
    }

    @Test(
        "fish loads 'completion fish' and completes commands, option values and files",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")),
        arguments: [
            ("mynotes l", ["list", "login", "logout"]),
            ("mynotes list --format ", ["json", "table", "xml"]),
            ("mynotes import No", ["Notes.json"]),
            ("mynotes list --server ", []),
        ])
    func fishCompletion(line: String, expected: [String]) async throws {
        let cli = CLI()
        defer { cli.remove() }
        _ = try cli.write("[]", to: "Notes.json")
        let script = try cli.write(
            (await cli.run(["completion", "fish"])).stdout, to: "mynotes.fish")
        let output = await cli.run(
            [
                "-c", "cd $argv[1]; and source $argv[2]; and complete -C '\(line)'", cli.home.path,
                script.path,
            ],
            executable: URL(fileURLWithPath: "/usr/bin/fish"))
        #expect(output.status == 0, "\(output.stderr)")
        let words = output.stdout.split(separator: "\n").map {
            String($0.split(separator: "\t").first ?? "")
        }
        #expect(words.sorted() == expected)
    }

    @Test(
        "zsh registers 'completion zsh' through bashcompinit and gets its answers",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")))
    func zshCompletion() async throws {
        let cli = CLI()
        defer { cli.remove() }
        let script = try cli.write(
            (await cli.run(["completion", "zsh"])).stdout, to: "mynotes.zsh")
        // Outside a completion widget, the function runs as bashcompinit runs it:
        // with bash's arrays (ksharrays).
        let output = await cli.run(
            [
                "-c",
                "autoload -U +X compinit && compinit -u -d \"$1/zcompdump\" && source \"$2\" && "
                    + "print -r -- \"${_comps[mynotes]}\" && setopt ksharrays && "
                    + "COMP_WORDS=(mynotes list --format '') && COMP_CWORD=3 && _mynotes && "
                    + "print -l -- \"${COMPREPLY[@]}\"",
                "zsh", cli.home.path, script.path,
            ], executable: URL(fileURLWithPath: "/usr/bin/zsh"))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "_bash_complete -F _mynotes\ntable\njson\nxml\n")
    }

    @Test("Colour on a terminal only, and never with NO_COLOR")
    func colourOnATerminalOnly() async throws {
        let (server, cli) = try await NoteCommandsTests.seeded()
        defer { server.shutdown() }
        let bold = "\u{1B}[1m"
        let onTerminal = try PseudoTerminal("mynotes", ["list"], environment: cli.environment)
        let shown = await onTerminal.finish()
        #expect(shown.status == 0)
        #expect(shown.output.contains(bold + "ID  DATE"), "\(shown.output)")

        var plain = cli.environment
        plain["NO_COLOR"] = "1"
        let noColor = try PseudoTerminal("mynotes", ["list"], environment: plain)
        let plainShown = await noColor.finish()
        #expect(plainShown.output.contains("ID  DATE"))
        #expect(!plainShown.output.contains("\u{1B}["))

        let piped = await cli.run(["list"])
        #expect(!piped.stdout.contains("\u{1B}"))
        let error = try PseudoTerminal("mynotes", ["rm", "99"], environment: cli.environment)
        let errorShown = await error.finish()
        #expect(errorShown.status == 1)
        #expect(errorShown.output.contains("\u{1B}[1;31mmynotes:\u{1B}[0m No such note."))
    }

    @Test("A list longer than the terminal goes through $PAGER; one that fits, or a pipe, does not")
    func pager() async throws {
        let (server, cli) = try await NoteCommandsTests.seeded()
        defer { server.shutdown() }
        var environment = cli.environment
        environment["NO_COLOR"] = "1"
        environment["PAGER"] = "sed s/^/paged:/"
        // A new pseudo-terminal has no size: LINES gives its height.
        environment["LINES"] = "4"
        let long = try PseudoTerminal("mynotes", ["list"], environment: environment)
        let paged = await long.finish()
        #expect(paged.status == 0)
        #expect(paged.output.contains("paged:ID  DATE"), "\(paged.output)")
        #expect(paged.output.contains("paged: 1  2026-11-27           Buy milk"))

        let short = try PseudoTerminal("mynotes", ["list", "-n", "2"], environment: environment)
        let fits = await short.finish()
        #expect(fits.output.hasPrefix("ID  DATE"), "\(fits.output)")
        #expect(!fits.output.contains("paged:"))

        environment["PAGER"] = "cat"
        let off = try PseudoTerminal("mynotes", ["list"], environment: environment)
        #expect(!(await off.finish()).output.contains("paged:"))

        let piped = await cli.run(["list"], extra: ["PAGER": "sed s/^/paged:/", "LINES": "4"])
        #expect(!piped.stdout.contains("paged:"))
    }
}
