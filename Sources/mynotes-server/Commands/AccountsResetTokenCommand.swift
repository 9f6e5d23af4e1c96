import MyNotesService
import Storage

/// `mynotes-server accounts reset-token EMAIL`: revokes every token, issues a new one.
struct AccountsResetTokenCommand: ServerCommand {
    static let path = ["accounts", "reset-token"]
    static let help = AccountArguments.help(
        "reset-token",
        """
        Revokes all of the account's access tokens and issues a new one, printed alone
        on the last line.
        """)

    let account: AccountArguments

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        account = try AccountArguments(arguments, environment: environment)
    }

    func run() throws(CommandFailure) {
        let token = try AccountArguments.perform(on: account.location) {
            store throws(AccountError) in
            try await AccountService(store: store).resetToken(email: account.email)
        }
        Console.output("New access token for \(account.email):")
        Console.output(token)
    }
}
