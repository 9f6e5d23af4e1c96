import MyNotesService
import Storage

/// `mynotes-server accounts list`: one account a line, email then creation time.
struct AccountsListCommand: ServerCommand {
    static let path = ["accounts", "list"]
    static let help = AccountArguments.help(
        "list", argument: "", "Lists the accounts, one a line: email, then when it was created.")

    let location: StoreLocation

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, options: [DatabaseOption.name], flags: [])
        if let extra = parsed.positionals.first {
            throw UsageError("unexpected argument '\(extra)'")
        }
        location = try DatabaseOption.location(parsed, environment: environment)
    }

    func run() throws(CommandFailure) {
        let accounts = try AccountArguments.perform(on: location) { store throws(AccountError) in
            try await AccountService(store: store).all()
        }
        for account in accounts {
            Console.output("\(account.email)\t\(RFC3339.string(milliseconds: account.createdAt))")
        }
    }
}
