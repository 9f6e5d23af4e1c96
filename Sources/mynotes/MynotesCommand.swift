import CommandLineSupport
import Foundation

/// The `mynotes` program: its commands, and `--api` accepted before the command too.
@main
enum MynotesCommand {
    static let program = CommandLineProgram(
        version: "1.0.0",
        root: CommandGroup(
            name: "mynotes", abstract: "mynotes: your MyNotes notes from the command line.",
            discussion: """
                Connection: --api legacy|rest --server URL --email EMAIL --token TOKEN, or
                MYNOTES_API, MYNOTES_SERVER, MYNOTES_EMAIL, MYNOTES_TOKEN, or the file
                'mynotes login' writes. --api may also come before the command.
                """,
            subcommands: [
                ListCommand.self, ShowCommand.self, AddCommand.self, EditCommand.self,
                RemoveCommand.self, SearchCommand.self, SignupCommand.self, LoginCommand.self,
                LogoutCommand.self, ImportCommand.self, ExportCommand.self, URLCommand.self,
            ].map { CommandNode.command($0) }))

    static func main() async {
        let arguments = hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst()))
        let status = await program.main(
            arguments, environment: ProcessInfo.processInfo.environment)
        exit(status.rawValue)
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
