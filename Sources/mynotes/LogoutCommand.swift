import CommandLineSupport
import MyNotesKit

/// `mynotes logout`: ends the session (REST) and forgets the token in the config file.
struct LogoutCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "logout", abstract: "End the session and remove the token from the saved settings.",
        discussion: discussion, options: options)
    private static let discussion = """
        REST API: the server revokes the token (one already revoked is fine). Legacy API:
        the protocol has no sessions, so the token is only removed from the config file
        and stays valid on the server.
        """
    private static let options = ConnectionOptions.specs.filter {
        !["--method", "--wire"].contains($0.name)
    }

    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let resolved = try connection.resolve(in: context)
        guard let token = resolved.token else { throw CommandFailure("not logged in: no token") }
        if resolved.api == .rest {
            do {
                try await AccountSession(connection, resolved, token: token, in: context)
                    .signOut()
            } catch .rest(.unauthorized) {
                // Already revoked, or never valid: either way it no longer works.
            } catch {
                throw CommandFailure(error, in: context.language)
            }
        }
        let environment = context.environment
        if var file = try ConfigFile.load(environment: environment), file.token == token {
            file.token = nil
            let url = try file.save(environment: environment)
            context.print("Logged out. Removed the token from \(url.path).")
        } else {
            context.print("Logged out.")
        }
    }
}
