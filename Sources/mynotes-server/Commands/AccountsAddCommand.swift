import MyNotesService
import Storage

/// `mynotes-server accounts add EMAIL`: creates an account, prints its token last.
struct AccountsAddCommand: ServerCommand {
    static let path = ["accounts", "add"]
    static let help = AccountArguments.help(
        "add",
        """
        Creates an account and prints its access token alone on the last line.
        The token is shown only now; the server keeps only its hash.
        """)

    let account: AccountArguments

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        account = try AccountArguments(arguments, environment: environment)
    }

    func run() throws(CommandFailure) {
        let (created, token) = try AccountArguments.perform(on: account.location) {
            store throws(AccountError) in
            try await AccountService(store: store).create(email: account.email)
        }
        Console.output("Created account \(created.email). Its access token:")
        Console.output(token)
    }
}
