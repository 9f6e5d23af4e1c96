import MyNotesService
import Storage

/// `mynotes-server accounts remove EMAIL`: removes the account and its notes.
struct AccountsRemoveCommand: ServerCommand {
    static let path = ["accounts", "remove"]
    static let help = AccountArguments.help("remove", "Removes the account and all of its notes.")

    let account: AccountArguments

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        account = try AccountArguments(arguments, environment: environment)
    }

    func run() throws(CommandFailure) {
        try AccountArguments.perform(on: account.location) { store throws(AccountError) in
            try await AccountService(store: store).remove(email: account.email)
        }
        Console.output("Removed account \(account.email) and its notes.")
    }
}
