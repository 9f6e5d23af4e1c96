import CommandLineSupport
import MyNotesKit

/// `mynotes login`: checks the credentials against the server, then saves them.
///
/// With the legacy API the token is given (or asked for) and checked with a query; with
/// `--api rest` the password is asked for and the server issues a new token.
struct LoginCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "login", abstract: "Check and save the server, email and token for later commands.",
        discussion: discussion, options: options)
    private static let discussion = """
        Saves to $XDG_CONFIG_HOME/mynotes/config.json (default ~/.config/mynotes), mode 0600.
        Legacy API: without --token, the token is read from standard input (empty for
        email-only servers). REST API: without --token, the password is asked for (not
        echoed; one line of standard input when it is not a terminal) and the server
        issues a new token.
        """
    private static let options = ConnectionOptions.specs

    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        var connection = self.connection
        let resolved = try connection.resolve(in: context)
        let tokenGiven = connection.token != nil || context.environment["MYNOTES_TOKEN"] != nil
        if resolved.api == .rest, !tokenGiven {
            try await signIn(resolved, in: context)
            return
        }
        if !tokenGiven {
            let answer =
                try SecretPrompt().readSecret(prompt: "Token (empty for none): ", naming: "token")
                ?? ""
            // An empty answer means no token, not the one saved before.
            connection.token = answer.isEmpty ? nil : answer
            connection.withoutToken = answer.isEmpty
        }
        let client = try connection.makeClient(in: context)
        let notes = try await calling(in: context.language, server: client.server) {
            () async throws(NotesClientError) in
            try await client.query()
        }
        let token = try connection.resolve(in: context).token
        let file = ConfigFile(
            api: resolved.api, server: resolved.server.absoluteString, email: client.email,
            token: token)
        let url = try file.save(environment: context.environment)
        context.print(
            "Logged in as \(file.email) (\(notes.count) notes). Saved to \(url.path).")
    }

    /// REST: the password for a new token.
    private func signIn(_ resolved: ConnectionOptions.Resolved, in context: CommandContext)
        async throws(CommandFailure)
    {
        guard let email = resolved.email else {
            throw CommandFailure("no account: give --email EMAIL or set MYNOTES_EMAIL")
        }
        let password = try SecretPrompt().password(for: email)
        let session = try await AccountSession(connection, resolved, in: context)
            .start(.signIn, email: email, password: password)
        let url = try ConfigFile.save(
            session, server: resolved.server, environment: context.environment)
        context.print("Logged in as \(session.email). Saved to \(url.path).")
    }
}
