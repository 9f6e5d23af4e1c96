import CommandLineSupport
import MyNotesKit

/// `mynotes signup`: creates an account with a password over the REST API, then saves
/// the server, email and token as `login` does.
struct SignupCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "signup", abstract: "Create an account with a password, and save it as login does.",
        discussion: discussion, options: options)
    private static let discussion = """
        Always speaks the REST API, and saves api "rest" with the server, email and new
        token in $XDG_CONFIG_HOME/mynotes/config.json (mode 0600). The password (at least
        8 characters) is asked twice without echo on a terminal; otherwise it is the
        first line of standard input. Without --email the email is asked for first (or
        is the line before the password).
        """
    private static let options = ConnectionOptions.accountSpecs

    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let resolved = try connection.resolve(in: context)
        var email = resolved.email
        if email == nil { email = try SecretPrompt().answer(prompt: "Email: ") }
        guard let email, !email.isEmpty else {
            throw CommandFailure("no email: give --email EMAIL, set MYNOTES_EMAIL, or type it")
        }
        let password = try SecretPrompt().newPassword(for: email)
        let session = try await AccountSession(connection, resolved, in: context)
            .start(.signUp, email: email, password: password)
        let url = try ConfigFile.save(
            session, server: resolved.server, environment: context.environment)
        context.print("Signed up as \(session.email). Saved to \(url.path).")
    }
}
