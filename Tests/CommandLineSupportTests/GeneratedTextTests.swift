import CommandLineSupport
import Foundation
import Testing

/// What CommandLineSupport generates from the declarations besides the help: option
/// sections, the manual page, shell completion, and text made safe for a terminal.
@Suite struct GeneratedTextTests {
    /// `tool note ID [TEXT] [--date D] [--server URL] [--trace]`: sections and an optional argument.
    struct NoteCommand: Command {
        static let configuration = CommandConfiguration(
            name: "note", abstract: "Change a note.",
            arguments: [ArgumentSpec("ID"), .optional("TEXT")],
            options: [
                .value("--date", "DATE", "A new date."),
                OptionSpec.value("--server", "URL", "The server.").listed(in: .named("Connection")),
                OptionSpec.value("--format", "table|json", "How to print.", short: "-f"),
                OptionSpec.value("--output", "FILE", "Where to write."),
                OptionSpec.flag("--trace", "Log every request.").listed(in: .debugging),
            ])
        var id: String
        var text: String?
        init(parsing arguments: ParsedArguments) throws(UsageError) {
            id = arguments.argument("ID")
            text = arguments.optionalArgument("TEXT")
        }
        func run(in context: CommandContext) throws(CommandFailure) {}
    }

    static let program = CommandLineProgram(
        version: "2.0.0",
        root: CommandGroup(
            name: "tool", abstract: "A tool.",
            subcommands: [
                .command(NoteCommand.self),
                .group(
                    CommandGroup(
                        name: "more", abstract: "More.", subcommands: [.command(EchoCommand.self)])),
            ]))

    @Test(
        "Leading options before the command word reach the command",
        arguments: [["--server", "u", "note", "7"], ["--server=u", "note", "7"]])
    func leadingOptions(arguments: [String]) {
        var program = Self.program
        program.root.leadingOptions = NoteCommand.configuration.options.filter {
            $0.name == "--server"
        }
        guard case .run(let command) = program.parse(arguments) else {
            Issue.record("\(arguments) did not parse")
            return
        }
        #expect((command as? NoteCommand)?.id == "7")
        guard case .usageError(let error, _) = Self.program.parse(arguments) else {
            Issue.record("taken without leading options declared")
            return
        }
        #expect(error.message.hasPrefix("unknown option '--server"))
    }

    @Test func anOptionalArgumentMayBeLeftOut() throws {
        for (arguments, text) in [(["note", "7"], nil), (["note", "7", "hi"], "hi")]
            as [([String], String?)]
        {
            guard case .run(let command) = Self.program.parse(arguments) else {
                Issue.record("\(arguments) did not parse")
                continue
            }
            #expect((command as? NoteCommand)?.text == text)
        }
        guard case .usageError(let error, _) = Self.program.parse(["note", "7", "a", "b"]) else {
            Issue.record("a third argument was taken")
            return
        }
        #expect(error.message == "unexpected argument 'b'")
    }

    @Test func helpListsSectionsAndNamesDebuggingSwitchesInOneLine() {
        guard case .help(let text) = Self.program.parse(["help", "note"]) else {
            Issue.record("no help")
            return
        }
        #expect(
            text
                == """
                Change a note.

                Usage: tool note ID [TEXT] [options]

                Options:
                  --date DATE             A new date.
                  -f, --format table|json  How to print.
                  --output FILE           Where to write.
                  --help                  Show this help.

                Connection options:
                  --server URL  The server.

                For testing and debugging: --trace (see 'tool help --man').

                """.replacingOccurrences(
                    of: "--date DATE             ", with: "--date DATE              "
                )
                .replacingOccurrences(
                    of: "--output FILE           ", with: "--output FILE            "
                )
                .replacingOccurrences(
                    of: "--help                  ", with: "--help                   "))
    }

    @Test func theManualPageHasEveryCommandAndOptionTheDebuggingOnesIncluded() throws {
        guard case .output(let page) = Self.program.parse(["help", "--man"]) else {
            Issue.record("no manual page")
            return
        }
        #expect(page.hasPrefix(".TH TOOL 1 \"\" \"tool 2.0.0\" \"User Commands\"\n"))
        for expected in [
            ".SS tool note ID [TEXT] [options]", ".B \\-\\-date DATE", ".B \\-\\-trace",
            "(testing and debugging)", ".SS tool more echo WORDS...", ".SH EXIT STATUS",
            "NO_COLOR",
        ] {
            #expect(page.contains(expected), "\(expected)")
        }
    }

    @Test(
        "completion SHELL is a built-in command; an unknown shell is a usage error",
        arguments: CompletionScript.Shell.allCases)
    func completionIsBuiltIn(shell: CompletionScript.Shell) {
        guard case .output(let script) = Self.program.parse(["completion", shell.rawValue]) else {
            Issue.record("no script")
            return
        }
        #expect(script.contains(shell == .fish ? "-l server" : "--server"))
        #expect(script.contains("echo"))
        guard case .usageError(let error, let hint) = Self.program.parse(["completion", "tcsh"])
        else {
            Issue.record("tcsh was taken")
            return
        }
        #expect(error.message == "SHELL must be one of bash|zsh|fish, not 'tcsh'")
        #expect(hint == "Try 'tool help'.")
    }

    @Test func fishCompletionNamesEveryCommandAndOptionUnderItsCondition() {
        let script = CompletionScript(program: Self.program).render(for: .fish)
        for line in [
            "complete -c tool -n '__fish_use_subcommand' -a 'note' -d 'Change a note.'",
            "complete -c tool -n '__fish_seen_subcommand_from more; and not __fish_seen_subcommand_from echo' -a 'echo' -d 'Repeat words.'",
            "complete -c tool -n '__fish_seen_subcommand_from note' -l format -s f -x -a 'table json' -d 'How to print.'",
            "complete -c tool -n '__fish_seen_subcommand_from note' -l output -r -F -d 'Where to write.'",
        ] {
            #expect(script.contains(line + "\n"), "\(line)")
        }
    }

    @Test func zshCompletionLoadsTheBashFunctionThroughBashcompinit() throws {
        let script = CompletionScript(program: Self.program).render(for: .zsh)
        #expect(script.hasPrefix("#compdef tool\n"))
        #expect(script.contains("autoload -U +X bashcompinit && bashcompinit\n"))
        #expect(script.contains("complete -F _tool tool\n"))
    }

    @Test(
        "Control characters are shown as escapes; kept line breaks stay",
        arguments: [
            ("plain 日本 😀", TerminalText.Kept.none, "plain 日本 😀"),
            ("red \u{1B}[31m!", .none, "red \\u{1B}[31m!"),
            ("title \u{1B}]0;pwned\u{7}", .none, "title \\u{1B}]0;pwned\\u{7}"),
            ("a\nb\tc\r", .none, "a\\u{A}b\\u{9}c\\u{D}"),
            ("a\nb\tc\r", .lineBreaks, "a\nb\tc\\u{D}"),
            ("del \u{7F} c1 \u{9B}", .none, "del \\u{7F} c1 \\u{9B}"),
            ("abc\u{202E}fed", .none, "abc\\u{202E}fed"),
        ])
    func escapesControlCharacters(text: String, kept: TerminalText.Kept, expected: String) {
        #expect(TerminalText.escaped(text, keeping: kept) == expected)
    }

    @Test func colourOnlyWhenEnabled() {
        #expect(TerminalStyle(isEnabled: false).apply(.error, to: "x:") == "x:")
        #expect(TerminalStyle(isEnabled: true).apply(.error, to: "x:") == "\u{1B}[1;31mx:\u{1B}[0m")
        // A pipe is no terminal, whatever the environment says.
        let pipe = Pipe()
        #expect(
            !TerminalStyle(for: pipe.fileHandleForWriting.fileDescriptor, environment: [:])
                .isEnabled)
        _ = pipe
    }
}
