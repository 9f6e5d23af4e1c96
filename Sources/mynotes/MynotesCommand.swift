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
                Offline: 'mynotes sync' keeps a local copy of the notes; --offline before
                list, search, show, add, edit or rm works on it, and the next sync pushes.
                """,
            subcommands: [
                ListCommand.self, ShowCommand.self, AddCommand.self, EditCommand.self,
                RemoveCommand.self, SearchCommand.self, SignupCommand.self, LoginCommand.self,
                LogoutCommand.self, ImportCommand.self, ExportCommand.self, URLCommand.self,
                // Live changes and the local copy.
                WatchCommand.self, SyncCommand.self,
            ].map { CommandNode.command($0) },
            leadingOptions: ConnectionOptions.specs + [LocalCopy.offlineSpec]))

    static func main() async {
        let status = await program.main(
            Array(CommandLine.arguments.dropFirst()),
            environment: ProcessInfo.processInfo.environment)
        exit(status.rawValue)
    }
}
