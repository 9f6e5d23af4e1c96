/// Picks the command named by the arguments, runs it, and maps failures to exit
/// statuses: 0 success, 1 a failure while running, 2 a usage error.
enum ServerCommandLine {
    static let commands: [any ServerCommand.Type] = [
        ServeCommand.self, AccountsAddCommand.self, AccountsListCommand.self,
        AccountsRemoveCommand.self, AccountsResetTokenCommand.self, AccountsSetPasswordCommand.self,
    ]

    static let help = """
        USAGE: mynotes-server [serve] [options]
               mynotes-server accounts add|list|remove|reset-token|set-password …

        The MyNotes web service: the legacy webservice.php protocol and REST API v1 over
        HTTP, notes in SQLite.

        COMMANDS:
          serve                   Run the server (the default command).
          accounts add EMAIL      Create an account and print its access token.
          accounts list           List the accounts.
          accounts remove EMAIL   Remove an account and its notes.
          accounts reset-token EMAIL
                                  Revoke all of an account's tokens and issue a new one.
          accounts set-password EMAIL
                                  Set the password an account signs in with (REST API).

        Run 'mynotes-server COMMAND --help' for a command's options.
        """

    static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.first == "accounts",
            arguments.count == 1 || ["--help", "-h"].contains(arguments[1])
        {
            Console.output(help)
            return arguments.count == 1 ? 2 : 0
        }
        let named = commands.first { arguments.starts(with: $0.path) }
        let command = named ?? ServeCommand.self
        let rest = Array(arguments.dropFirst(named?.path.count ?? 0))
        // Without a command word only options may follow: a word is a mistyped command.
        if named == nil, let word = arguments.first, !word.hasPrefix("-") {
            Console.error("error: unknown command '\(arguments.prefix(2).joined(separator: " "))'")
            return 2
        }
        if rest.contains("--help") || rest.contains("-h") {
            Console.output(named == nil ? help : command.help)
            return 0
        }
        do {
            let parsed = try command.init(arguments: rest, environment: environment)
            try parsed.validate()
            do {
                try parsed.run()
            } catch {
                Console.error("error: \(error)")
                return 1
            }
        } catch {
            Console.error("error: \(error)")
            return 2
        }
        return 0
    }
}
