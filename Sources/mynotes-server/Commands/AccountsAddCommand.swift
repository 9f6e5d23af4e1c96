import CommandLineSupport
import MyNotesDomain
import MyNotesService

/// `mynotes-server accounts add EMAIL`: creates an account, prints its token last.
struct AccountsAddCommand: Command {
    static let configuration = CommandConfiguration(
        name: "add", abstract: "Create an account and print its access token.",
        discussion: """
            Creates an account and prints its access token alone on the last line.
            The token is shown only now; the server keeps only its hash.
            """,
        arguments: AccountArguments.arguments, options: AccountArguments.options)

    let account: AccountArguments

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        account = try AccountArguments(arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let (created, token) = try await AccountArguments.perform(on: account.location) {
            store throws(AccountError) in
            try await AccountService(store: store).create(email: account.email)
        }
        context.print("Created account \(created.email). Its access token:")
        context.print(token)
    }
}
