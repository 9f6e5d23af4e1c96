import MyNotesKit

/// `mynotes login`: checks the credentials against the server, then saves them.
struct LoginCommand: Command {
    static let name = "login"
    static let summary = "Check and save the server, email and token for later commands."
    static let arguments = ""
    static let discussion = """
        Saves to $XDG_CONFIG_HOME/mynotes/config.json (default ~/.config/mynotes), mode 0600.
        Without --token, the token is read from standard input (empty for email-only servers).
        """
    static let options = ConnectionOptions.specs

    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        connection = try ConnectionOptions(parsing: arguments)
    }

    func validate() throws(UsageError) {
        try connection.validate()
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        var connection = self.connection
        if connection.token == nil, context.environment["MYNOTES_TOKEN"] == nil {
            connection.token = context.readSecretLine(prompt: "Token (empty for none): ")
        }
        let client = try connection.makeClient(in: context)
        let notes = try await calling { () async throws(NotesClientError) in
            try await client.query()
        }
        let configuration = client.configuration
        let file = ConfigFile(
            server: configuration.server.absoluteString, email: configuration.credentials.email,
            token: configuration.credentials.token)
        let url = try file.save(environment: context.environment)
        context.print(
            "Logged in as \(file.email) (\(notes.count) notes). Saved to \(url.path).")
    }
}
