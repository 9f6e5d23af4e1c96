/// A program's commands and version: reads a command line, answers `--help`, `help CMD`,
/// `--version` and `version` itself, and otherwise parses, validates and runs the command,
/// reporting errors in one style: `PROGRAM: message` on standard error, for a usage error
/// followed by a hint line (`Try 'PROGRAM help CMD'.`) and exit status 2, for a failure
/// exit status 1.
///
/// ```swift
/// let program = CommandLineProgram(
///     version: "1.0.0",
///     root: CommandGroup(
///         name: "greeter", abstract: "Greets people.", subcommands: [.command(GreetCommand.self)]))
/// exit(await program.main(Array(CommandLine.arguments.dropFirst()), environment: [:]).rawValue)
/// ```
public struct CommandLineProgram: Sendable {
    public var version: String
    /// The program's commands; its name is the program's.
    public var root: CommandGroup

    public init(version: String, root: CommandGroup) {
        self.version = version
        self.root = root
    }

    public var name: String { root.name }

    private var formatter: HelpFormatter { HelpFormatter(program: name) }

    /// Runs the command line and gives the status to exit with.
    public func main(_ arguments: [String], environment: [String: String]) async -> ExitStatus {
        let context = CommandContext(environment: environment)
        switch parse(arguments, environment: environment) {
        case .help(let text):
            context.write(text)
            return .success
        case .missingCommand(let help):
            context.writeError(help)
            return .usage
        case .version(let line):
            context.print(line)
            return .success
        case .output(let text):
            context.write(text)
            return .success
        case .usageError(let error, let hint):
            context.printError(errorLine(error.message, in: context) + "\n" + hint)
            return .usage
        case .run(let command):
            do {
                try await command.run(in: context)
                return .success
            } catch {
                context.printError(errorLine(error.message, in: context))
                return .failure
            }
        }
    }

    /// `PROGRAM: message`; on a terminal the name in colour and the message escaped,
    /// since it may quote a server or a file.
    private func errorLine(_ message: String, in context: CommandContext) -> String {
        let shown =
            context.standardErrorIsTerminal
            ? TerminalText.escaped(message, keeping: .lineBreaks) : message
        return context.errorStyle.apply(.error, to: "\(name):") + " " + shown
    }

    /// What the command line asks for; a command is returned parsed and validated.
    public func parse(_ arguments: [String], environment: [String: String] = [:]) -> Invocation {
        var group = root
        var path: [String] = []
        var rest = root.movingLeadingOptions(arguments)[...]
        while true {
            guard let word = rest.first else {
                if let command = group.defaultCommand {
                    return invoke(command, path: path, [], environment, isDefault: true)
                }
                return .missingCommand(help: formatter.help(for: group, path: path))
            }
            if word == "--help" || word == "-h" {
                return .help(formatter.help(for: group, path: path))
            }
            if path.isEmpty, word == "--version" || word == "version" {
                if rest.count > 1 {
                    return usageError("unexpected argument '\(rest[rest.startIndex + 1])'", [])
                }
                return .version("\(name) \(version)")
            }
            if path.isEmpty, let builtIn = builtIn(word, Array(rest.dropFirst())) { return builtIn }
            if word == "help" { return help(Array(rest.dropFirst()), in: group, path: path) }
            switch group.subcommand(named: word) {
            case .group(let nested):
                group = nested
                path.append(word)
                rest = rest.dropFirst()
            case .command(let type):
                let isDefault = group.defaultCommand.map { $0 == type } ?? false
                return invoke(
                    type, path: path, Array(rest.dropFirst()), environment, isDefault: isDefault)
            case nil:
                if word.hasPrefix("-"), let command = group.defaultCommand {
                    return invoke(command, path: path, Array(rest), environment, isDefault: true)
                }
                if word.hasPrefix("-") { return usageError("unknown option '\(word)'", path) }
                let named = (path + [word]).joined(separator: " ")
                return usageError("unknown command '\(named)'", path)
            }
        }
    }

    /// `help --man` and `completion SHELL`, generated from the declarations.
    private func builtIn(_ word: String, _ arguments: [String]) -> Invocation? {
        switch (word, arguments) {
        case ("help", ["--man"]):
            return .output(ManPage(program: self).render())
        case ("completion", let arguments):
            guard let shellName = arguments.first else {
                return usageError("missing SHELL (bash, zsh or fish)", [])
            }
            guard let shell = CompletionScript.Shell(rawValue: shellName) else {
                return usageError(
                    "SHELL must be one of bash|zsh|fish, not '\(shellName)'", [])
            }
            if arguments.count > 1 {
                return usageError("unexpected argument '\(arguments[1])'", [])
            }
            return .output(CompletionScript(program: self).render(for: shell))
        default:
            return nil
        }
    }

    /// `help WORDS…`: the help of the command or group the words name from `group`.
    private func help(_ words: [String], in group: CommandGroup, path: [String]) -> Invocation {
        var group = group
        var groupPath = path
        for (index, word) in words.enumerated() {
            switch group.subcommand(named: word) {
            case .group(let nested):
                group = nested
                groupPath.append(word)
            case .command(let type) where index == words.count - 1:
                let isDefault = group.defaultCommand.map { $0 == type } ?? false
                return .help(
                    formatter.help(for: type, path: groupPath + [word], isDefault: isDefault))
            case .command:
                let named = (path + words[...(index + 1)]).joined(separator: " ")
                return usageError("unknown command '\(named)'", groupPath)
            case nil:
                let named = (path + words[...index]).joined(separator: " ")
                return usageError("unknown command '\(named)'", groupPath)
            }
        }
        return .help(formatter.help(for: group, path: groupPath))
    }

    /// A command's arguments parsed, the command built and validated; or its help when
    /// `--help` or `-h` comes before any `--`.
    private func invoke(
        _ type: any Command.Type, path: [String], _ arguments: [String],
        _ environment: [String: String], isDefault: Bool
    ) -> Invocation {
        let path = path + [type.configuration.name]
        let options = arguments.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") {
            return .help(formatter.help(for: type, path: path, isDefault: isDefault))
        }
        do {
            let parsed = try ParsedArguments(
                arguments, for: type.configuration, environment: environment)
            let command = try type.init(parsing: parsed)
            try command.validate()
            return .run(command)
        } catch {
            return .usageError(error, hint: hint(path))
        }
    }

    private func usageError(_ message: String, _ path: [String]) -> Invocation {
        .usageError(UsageError(message), hint: hint(path))
    }

    /// `Try 'PROGRAM help CMD'.`, the help that explains the command being run.
    private func hint(_ path: [String]) -> String {
        "Try '\(([name, "help"] + path).joined(separator: " "))'."
    }
}
