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
                'mynotes login' writes; they may also come before the command.
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

    /// `mynotes --server URL list …` as `mynotes list --server URL …`: connection
    /// options before the command move after it, where the command's parser reads them.
    static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        var rest = arguments[...]
        var global: [String] = []
        while let first = rest.first, first.hasPrefix("--") {
            let name = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
            guard ConnectionOptions.specs.contains(where: { $0.name == name }) else { break }
            let count = first.contains("=") ? 1 : min(2, rest.count)
            global += rest.prefix(count)
            rest = rest.dropFirst(count)
        }
        guard let name = rest.first else { return global + rest }
        return [name] + global + rest.dropFirst()
    }
}
