import MyNotesKit

/// `mynotes signup`: creates an account with a password over the REST API, then saves
/// the server, email and token as `login` does.
struct SignupCommand: ConnectionCommand {
    static let name = "signup"
    static let summary = "Create an account with a password, and save it as login does."
    static let arguments = ""
    static let discussion = """
        Always speaks the REST API, and saves api "rest" with the server, email and new
        token in $XDG_CONFIG_HOME/mynotes/config.json (mode 0600). The password (at least
        8 characters) is asked twice without echo on a terminal; otherwise it is the
        first line of standard input.
        """
    static let options = ConnectionOptions.accountSpecs

    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        connection = try ConnectionOptions(parsingAlone: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let resolved = try connection.resolve(in: context)
        guard let email = resolved.email else {
            throw .message("no account: give --email EMAIL or set MYNOTES_EMAIL")
        }
        let password = try context.readNewPassword(for: email)
        let session = try await AccountSession(connection, resolved, in: context)
            .start(.signUp, email: email, password: password)
        let url = try ConfigFile.save(
            session, server: resolved.server, environment: context.environment)
        context.print("Signed up as \(session.email). Saved to \(url.path).")
    }
}
