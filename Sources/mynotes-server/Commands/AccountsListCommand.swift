import CommandLineSupport
import MyNotesDomain
import MyNotesService
import Storage

/// `mynotes-server accounts list`: one account a line, email then creation time.
struct AccountsListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "List the accounts.",
        discussion: "Lists the accounts, one a line: email, then when it was created.",
        options: AccountArguments.options)

    let location: StoreLocation

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        location = try DatabaseOption.location(arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let accounts = try await AccountArguments.perform(on: location) {
            store throws(AccountError) in
            try await AccountService(store: store).all()
        }
        for account in accounts {
            let created = RFC3339.string(milliseconds: account.createdAt)
            context.print("\(context.shown(account.email))\t\(created)")
        }
    }
}
