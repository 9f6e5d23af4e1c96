import BoundedExecution
import CommandLineSupport
import MyNotesDomain
import MyNotesService

/// `mynotes-server accounts set-password EMAIL`: sets the password the REST API's
/// sign-in checks, for an account made by `accounts add` (or to change one), and revokes
/// every token of the account.
struct AccountsSetPasswordCommand: Command {
    static let configuration = CommandConfiguration(
        name: "set-password", abstract: "Set the password an account signs in with (REST API).",
        discussion: """
            Sets the account's password (at least 8 characters). On a terminal it is asked
            for twice without echo; otherwise the first line of standard input is the password.
            Every existing token of the account is revoked (sessions and the access key):
            whoever held one signs in again; 'accounts reset-token' issues a new access key.
            """,
        arguments: AccountArguments.arguments, options: AccountArguments.options)

    let account: AccountArguments

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        account = try AccountArguments(arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let email = account.email
        let password = try SecretPrompt().newPassword(for: email)
        try await AccountArguments.perform(on: account.location) { store throws(SessionError) in
            var configuration = ServiceConfiguration()
            configuration.hashing = ExecutorLimits(threads: 1, queueLimit: 1)
            let services = DomainServices(store: store, configuration: configuration)
            defer { services.close() }
            try await services.sessions.setPassword(password, email: email)
        }
        context.print("Password set for \(email).")
    }
}
