import CommandLineSupport
import Testing

@Suite struct CommandLineProgramTests {
    let program = Fixtures.program

    static let helloHelp = """
        Say hello.

        Usage: greeter hello NAME [options]

        Greets NAME once.

        Options:
          -g, --greeting WORD  The word to greet with.
          -l, --loud           Shout it.
          --times N            How often.
          --help               Show this help.

        """

    static let overview = """
        Greets people.

        Usage: greeter COMMAND [ARGUMENTS] [options]

        Commands:
          hello       Say hello.
          more echo   Repeat words.
          version     Print the version (also --version).
          help        Show the help of a command: help COMMAND (help --man: the manual).
          completion  Print a shell completion script: completion bash|zsh|fish.

        Be kind.
        Run 'greeter help COMMAND' for a command's options.

        """

    func help(_ arguments: [String]) -> String? {
        guard case .help(let text) = program.parse(arguments) else { return nil }
        return text
    }

    func usageError(_ arguments: [String]) -> (message: String, hint: String)? {
        guard case .usageError(let error, let hint) = program.parse(arguments) else { return nil }
        return (error.message, hint)
    }

    @Test(arguments: [
        ["hello", "--help"], ["hello", "-h"], ["help", "hello"], ["hello", "ann", "--help"],
        ["hello", "--bogus", "--help"],
    ])
    func generatesACommandsHelp(arguments: [String]) {
        #expect(help(arguments) == Self.helloHelp)
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func generatesTheOverview(arguments: [String]) {
        #expect(help(arguments) == Self.overview)
    }

    @Test func generatesANestedCommandsHelp() {
        let expected = """
            Repeat words.

            Usage: greeter more echo WORDS...

            Options:
              --help  Show this help.

            """
        #expect(help(["help", "more", "echo"]) == expected)
        #expect(help(["more", "echo", "-h"]) == expected)
        #expect(help(["more", "--help"])?.contains("Run 'greeter help more COMMAND'") == true)
    }

    @Test(arguments: [["--version"], ["version"]])
    func printsTheVersion(arguments: [String]) {
        guard case .version(let line) = program.parse(arguments) else {
            Issue.record("no version for \(arguments)")
            return
        }
        #expect(line == "greeter 1.2.3")
    }

    @Test(arguments: [
        (["help", "nosuch"], "unknown command 'nosuch'", "Try 'greeter help'."),
        (["help", "more", "nosuch"], "unknown command 'more nosuch'", "Try 'greeter help more'."),
        (["help", "hello", "x"], "unknown command 'hello x'", "Try 'greeter help'."),
        (["nosuch"], "unknown command 'nosuch'", "Try 'greeter help'."),
        (["--bogus"], "unknown option '--bogus'", "Try 'greeter help'."),
        (["version", "x"], "unexpected argument 'x'", "Try 'greeter help'."),
        (["hello"], "missing NAME", "Try 'greeter help hello'."),
        (
            ["hello", "ann", "--times=9"],
            "option '--times' must be a whole number from 1 to 3, not '9'",
            "Try 'greeter help hello'."
        ),
        (["hello", "nobody"], "nobody cannot be greeted", "Try 'greeter help hello'."),
        (["more", "echo"], "missing WORDS", "Try 'greeter help more echo'."),
    ])
    func reportsUsageErrorsWithAHint(arguments: [String], message: String, hint: String) {
        let error = usageError(arguments)
        #expect(error?.message == message)
        #expect(error?.hint == hint)
    }

    @Test func parsesAndValidatesTheCommand() throws {
        guard case .run(let command) = program.parse(["hello", "-g=Hi", "--loud", "ann"]) else {
            Issue.record("not parsed")
            return
        }
        let hello = try #require(command as? HelloCommand)
        #expect(hello.greeting == "Hi" && hello.loud && hello.name == "ann")
    }

    @Test func asksForACommandWhenAGroupIsNamedAlone() {
        guard case .missingCommand(let help) = program.parse(["more"]) else {
            Issue.record("no help")
            return
        }
        #expect(help.hasPrefix("More commands.\n\nUsage: greeter more COMMAND"))
    }

    @Test func runsTheDefaultCommandWhenOptionsComeFirst() throws {
        let program = CommandLineProgram(
            version: "1",
            root: CommandGroup(
                name: "tool", abstract: "A tool.",
                subcommands: [.command(HelloCommand.self), .command(EchoCommand.self)],
                defaultCommand: HelloCommand.self))
        guard case .run(let command) = program.parse(["-g=Hi", "ann"]) else {
            Issue.record("the default command did not run")
            return
        }
        #expect(try #require(command as? HelloCommand).greeting == "Hi")
        guard case .usageError(let error, let hint) = program.parse(["--bogus"]) else {
            Issue.record("--bogus accepted")
            return
        }
        #expect(error.message == "unknown option '--bogus'")
        #expect(hint == "Try 'tool help hello'.")
        guard case .help(let help) = program.parse(["help", "hello"]) else {
            Issue.record("no help")
            return
        }
        #expect(help.contains("Usage: tool [hello] NAME [options]"))
    }
}
