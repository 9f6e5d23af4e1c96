import CommandLineSupport
import MyNotesDomain
import MyNotesService

/// `mynotes-server accounts remove EMAIL`: removes the account and its notes.
struct AccountsRemoveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "remove", abstract: "Remove an account and its notes.",
        discussion: "Removes the account and all of its notes.",
        arguments: AccountArguments.arguments, options: AccountArguments.options)

    let account: AccountArguments

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        account = try AccountArguments(arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        try await AccountArguments.perform(on: account.location) { store throws(AccountError) in
            try await AccountService(store: store).remove(email: account.email)
        }
        context.print("Removed account \(account.email) and its notes.")
    }
}
