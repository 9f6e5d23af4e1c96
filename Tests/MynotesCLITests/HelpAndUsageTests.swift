import Testing

/// `--help` everywhere, exit status 2 for every kind of usage error.
@Suite("mynotes help and usage errors")
struct HelpAndUsageTests {
    static let commands = [
        "list", "show", "add", "edit", "rm", "search", "signup", "login", "logout", "import",
        "export", "url", "watch", "sync",
    ]

    @Test("mynotes --help lists every command (golden)")
    func overview() async {
        let output = await CLI().run(["--help"])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                mynotes: your MyNotes notes from the command line.

                Usage: mynotes COMMAND [ARGUMENTS] [options]

                Commands:
                  list        List the notes, newest first.
                  show        Show one note in full.
                  add         Add a note.
                  edit        Change a note's text, its date, or both.
                  rm          Remove notes.
                  search      List the notes that contain all the words, ignoring case.
                  signup      Create an account with a password, and save it as login does.
                  login       Check and save the server, email and token for later commands.
                  logout      End the session and remove the token from the saved settings.
                  import      Upload the notes of a Notes.xml or Notes.json file.
                  export      Write all notes as Notes.json or Notes.xml.
                  url         Percent-encode or decode text.
                  watch       Print each change to the notes as it happens, until Ctrl-C.
                  sync        Refresh the local copy of the notes and push offline changes.
                  version     Print the version (also --version).
                  help        Show the help of a command: help COMMAND (help --man: the manual).
                  completion  Print a shell completion script: completion bash|zsh|fish.

                Connection: --api legacy|rest --server URL --email EMAIL --token TOKEN, or
                MYNOTES_API, MYNOTES_SERVER, MYNOTES_EMAIL, MYNOTES_TOKEN, or the file
                'mynotes login' writes; they may also come before the command.
                Offline: 'mynotes sync' keeps a local copy of the notes; --offline before
                list, search, show, add, edit or rm works on it, and the next sync pushes.
                Run 'mynotes help COMMAND' for a command's options.

                """)
    }

    @Test("mynotes add --help (golden)")
    func addHelp() async {
        let output = await CLI().run(["add", "--help"])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                Add a note.

                Usage: mynotes add TEXT [options]

                TEXT '-' reads the note from standard input, without its last line break (end
                with an empty line to keep one).
                Put '--' before a TEXT that starts with '-': mynotes add -- "-5 °C tonight"

                Options:
                  --date DATE                  yyyy-MM-dd[ HH:mm[:ss]] (default now).
                  -f, --format table|json|xml  How to print notes (default table).
                  --help                       Show this help.

                Connection options:
                  --api legacy|rest  The protocol (or env MYNOTES_API; default legacy).
                  --server URL       The server (or env MYNOTES_SERVER).
                  --email EMAIL      The account (or env MYNOTES_EMAIL).
                  --token TOKEN      The access token (or env MYNOTES_TOKEN); none for email-only servers.
                  --timeout SECONDS  How long one request may take (default 30).
                  --offline          Work on the local copy 'mynotes sync' keeps; changes wait for the next sync.

                For testing and debugging: --method, --wire, --style (see 'mynotes help --man').

                """)
    }

    @Test(
        "Every command has --help, wherever it stands, and it touches no server",
        arguments: commands)
    func commandHelp(command: String) async {
        for arguments in [
            [command, "--help"], [command, "-h"], ["help", command], [command, "x", "--help"],
        ] {
            let output = await CLI().run(arguments)
            #expect(output.status == 0, "\(arguments)")
            #expect(output.stdout.contains("Usage: mynotes \(command)"), "\(arguments)")
            #expect(output.stdout.contains("  --help "), "\(arguments)")
            #expect(output.stderr.isEmpty)
        }
    }

    @Test(
        "Usage errors exit 2 and say what is wrong",
        arguments: [
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["list", "--bogus"], "unknown option '--bogus'"),
            (["list", "extra"], "unexpected argument 'extra'"),
            (["show"], "missing ID"),
            (["show", "abc"], "ID must be a positive whole number, not 'abc'"),
            (["rm", "0"], "ID must be a positive whole number, not '0'"),
            (["rm", "+5"], "ID must be a positive whole number, not '+5'"),
            (["add"], "missing TEXT"),
            (["add", ""], "TEXT is empty"),
            (["add", "x", "--date", "yesterday"], "--date must be yyyy-MM-dd"),
            (["add", "x", "--date"], "option '--date' needs a value"),
            (["edit", "1"], "nothing to change: give TEXT or --date"),
            (["edit", "1", "x", "y"], "unexpected argument 'y'"),
            (["add", "buy", "milk"], "unexpected argument 'milk'"),
            (["list", "-f=csv"], "option '--format' must be one of table|json|xml, not 'csv'"),
            (["list", "-f"], "option '-f' needs a value"),
            (["list", "-x=1"], "unknown option '-x'"),
            (["search"], "missing WORDS"),
            (
                ["list", "--format", "csv"],
                "option '--format' must be one of table|json|xml, not 'csv'"
            ),
            (["list", "--method", "put"], "option '--method' must be one of get|post, not 'put'"),
            (["list", "--wire", "yaml"], "option '--wire' must be one of json|xml, not 'yaml'"),
            (
                ["list", "--style", "threads"],
                "option '--style' must be one of async|callback|sync"
            ),
            (["list", "--timeout", "0"], "option '--timeout' must be a positive number"),
            (["list", "--api", "soap"], "option '--api' must be one of legacy|rest, not 'soap'"),
            (["--api", "soap", "list"], "option '--api' must be one of legacy|rest, not 'soap'"),
            (
                ["--api", "rest", "list", "--wire", "xml"],
                "option '--wire' applies to --api legacy only"
            ),
            (
                ["show", "1", "--method", "get", "--api=rest"],
                "option '--method' applies to --api legacy only"
            ),
            (["signup", "extra"], "unexpected argument 'extra'"),
            (["signup", "--token", "t"], "unknown option '--token'"),
            (["logout", "--wire", "xml"], "unknown option '--wire'"),
            (["login", "--api"], "option '--api' needs a value"),
            (
                ["list", "--server", "ftp://example.com"],
                "option '--server' must be an http or https URL"
            ),
            (["import"], "missing FILE"),
            (
                ["import", "a.xml", "--jobs", "0"],
                "option '--jobs' must be a whole number from 1 to 64, not '0'"
            ),
            (["export", "--format", "csv"], "option '--format' must be one of json|xml"),
            (["url"], "missing encode|decode"),
            (["url", "frob", "x"], "expected encode or decode, not 'frob'"),
            (["url", "encode"], "missing TEXT"),
            (["url", "decode", "x", "--escape", "a"], "--escape applies to encode only"),
            (["url", "encode", "x", "--lenient"], "--lenient applies to decode only"),
            (["url", "encode", "x", "--preset", "html"], "option '--preset' must be one of"),
        ])
    func usageErrors(arguments: [String], message: String) async {
        let output = await CLI().run(arguments)
        #expect(output.status == 2)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("mynotes: "), "\(output.stderr)")
        #expect(lines.last?.hasPrefix("Try 'mynotes help") == true, "\(output.stderr)")
    }

    @Test("A usage error names the help to read (golden)")
    func usageLine() async {
        let output = await CLI().run(["edit", "7"])
        #expect(output.status == 2)
        #expect(
            output.stderr
                == "mynotes: nothing to change: give TEXT or --date\nTry 'mynotes help edit'.\n")
    }

    @Test(
        "--version and version print the program and its version",
        arguments: ["--version", "version"])
    func version(argument: String) async {
        let output = await CLI().run([argument])
        #expect(output.status == 0)
        #expect(output.stdout == "mynotes 1.0.0\n")
        #expect(output.stderr.isEmpty)
    }

    @Test("help CMD is CMD --help", arguments: commands)
    func helpCommand(command: String) async {
        let help = await CLI().run(["help", command])
        #expect(help.status == 0)
        #expect(help.stdout == (await CLI().run([command, "--help"])).stdout)
    }

    @Test("help for an unknown command is a usage error (golden)")
    func helpUnknown() async {
        let output = await CLI().run(["help", "nosuch"])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == "mynotes: unknown command 'nosuch'\nTry 'mynotes help'.\n")
    }

    @Test("No command at all: the overview on stderr, exit 2")
    func noCommand() async {
        let output = await CLI().run([])
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("mynotes: your MyNotes notes"))
    }
}
