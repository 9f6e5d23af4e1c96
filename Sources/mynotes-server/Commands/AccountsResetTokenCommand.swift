import CommandLineSupport
import MyNotesDomain
import MyNotesService

/// `mynotes-server accounts reset-token EMAIL`: revokes every token, issues a new one.
struct AccountsResetTokenCommand: Command {
    static let configuration = CommandConfiguration(
        name: "reset-token", abstract: "Revoke all of an account's tokens and issue a new one.",
        discussion: """
            Revokes all of the account's access tokens and issues a new one, printed alone
            on the last line.
            """,
        arguments: AccountArguments.arguments, options: AccountArguments.options)

    let account: AccountArguments

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        account = try AccountArguments(arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let token = try await AccountArguments.perform(on: account.location) {
            store throws(AccountError) in
            try await AccountService(store: store).resetToken(email: account.email)
        }
        context.print("New access token for \(account.email):")
        context.print(token)
    }
}
