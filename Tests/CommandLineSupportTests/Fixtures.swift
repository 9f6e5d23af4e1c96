import CommandLineSupport

/// `greeter hello NAME [--greeting WORD] [--loud]`: a command to parse and run.
struct HelloCommand: Command {
    static let configuration = CommandConfiguration(
        name: "hello", abstract: "Say hello.", discussion: "Greets NAME once.",
        arguments: [ArgumentSpec("NAME")],
        options: [
            .value("--greeting", "WORD", "The word to greet with.", short: "-g"),
            .flag("--loud", "Shout it.", short: "-l"),
            .value("--times", "N", "How often."),
        ])

    var name: String
    var greeting: String
    var loud: Bool
    var times: Int

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        name = arguments.argument("NAME")
        greeting = arguments.value("--greeting") ?? "Hello"
        loud = arguments.has("--loud")
        times = try arguments.integer("--times", in: 1...3) ?? 1
    }

    func validate() throws(UsageError) {
        if name == "nobody" { throw UsageError("nobody cannot be greeted") }
    }

    func run(in context: CommandContext) throws(CommandFailure) {
        throw CommandFailure("not run in these tests")
    }
}

/// `greeter list WORDS...`, the default command.
struct EchoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "echo", abstract: "Repeat words.", arguments: [.repeating("WORDS")])

    var words: [String]

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        words = arguments.arguments("WORDS")
    }

    func run(in context: CommandContext) throws(CommandFailure) {
        context.print(words.joined(separator: " "))
    }
}

enum Fixtures {
    static let program = CommandLineProgram(
        version: "1.2.3",
        root: CommandGroup(
            name: "greeter", abstract: "Greets people.", discussion: "Be kind.",
            subcommands: [
                .command(HelloCommand.self),
                .group(
                    CommandGroup(
                        name: "more", abstract: "More commands.",
                        subcommands: [.command(EchoCommand.self)])),
            ]))
}
