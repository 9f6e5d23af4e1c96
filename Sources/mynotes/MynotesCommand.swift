import Foundation

/// The `mynotes` command: picks the subcommand, parses, validates, runs, and maps the
/// outcome to an exit status (0 success, 1 failure, 2 usage error).
@main
enum MynotesCommand {
    static let commands: [any Command.Type] = [
        ListCommand.self, ShowCommand.self, AddCommand.self, EditCommand.self, RemoveCommand.self,
        SearchCommand.self, SignupCommand.self, LoginCommand.self, LogoutCommand.self,
        ImportCommand.self, ExportCommand.self, URLCommand.self,
    ]

    static func main() async {
        let context = CommandContext(environment: ProcessInfo.processInfo.environment)
        let status = await run(Array(CommandLine.arguments.dropFirst()), in: context)
        exit(status.rawValue)
    }

    static var help: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        var text = """
            mynotes: your MyNotes notes from the command line.

            Usage: mynotes COMMAND [ARGUMENTS] [options]

            Commands:

            """
        for command in commands {
            let padding = String(repeating: " ", count: width - command.name.count)
            text += "  \(command.name)\(padding)  \(command.summary)\n"
        }
        text += """

            Connection: --api legacy|rest --server URL --email EMAIL --token TOKEN, or
            MYNOTES_API, MYNOTES_SERVER, MYNOTES_EMAIL, MYNOTES_TOKEN, or the file
            'mynotes login' writes. --api may also come before the command.
            Run 'mynotes COMMAND --help' for a command's options.

            """
        return text
    }

    static func run(_ arguments: [String], in context: CommandContext) async -> ExitStatus {
        let arguments = hoistingGlobalOptions(arguments)
        guard let name = arguments.first else {
            context.writeError(help)
            return .usage
        }
        if name == "--help" || name == "-h" || name == "help" {
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] })
            {
                context.write(command.help)
            } else {
                context.write(help)
            }
            return .success
        }
        guard let type = commands.first(where: { $0.name == name }) else {
            context.printError(
                "mynotes: unknown command '\(name)'\nRun 'mynotes --help' for the commands.")
            return .usage
        }
        do {
            let parsed = try ParsedArguments(Array(arguments.dropFirst()), options: type.options)
            if parsed.wantsHelp {
                context.write(type.help)
                return .success
            }
            let command = try type.init(parsing: parsed)
            try command.validate()
            try await command.run(in: context)
            return .success
        } catch let error as UsageError {
            context.printError(
                "mynotes \(name): \(error.message)\nUsage: \(type.usage)\n"
                    + "Run 'mynotes \(name) --help' for more.")
            return .usage
        } catch let failure as CommandFailure {
            context.printError("mynotes: " + failure.text(in: context.language))
            return .failure
        } catch {
            context.printError("mynotes: \(error)")
            return .failure
        }
    }

    /// `mynotes --api rest list …` as `mynotes list --api rest …`: the global option
    /// before the command moves after it, where the command's parser reads it.
    static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        var rest = arguments[...]
        var global: [String] = []
        while let first = rest.first {
            if first == "--api", rest.count >= 2 {
                global += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if first.hasPrefix("--api=") {
                global.append(first)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        guard let name = rest.first else { return Array(rest) }
        return [name] + global + rest.dropFirst()
    }
}
