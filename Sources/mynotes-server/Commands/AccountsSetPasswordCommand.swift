import BoundedExecution
import MyNotesService
import Storage

/// `mynotes-server accounts set-password EMAIL`: sets the password the REST API's
/// sign-in checks, for an account made by `accounts add` (or to change one).
struct AccountsSetPasswordCommand: ServerCommand {
    static let path = ["accounts", "set-password"]
    static let help = AccountArguments.help(
        "set-password",
        """
        Sets the account's password (at least 8 characters). On a terminal it is asked
        for twice without echo; otherwise the first line of standard input is the password.
        Existing tokens stay valid.
        """)

    let account: AccountArguments

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        account = try AccountArguments(arguments, environment: environment)
    }

    func run() throws(CommandFailure) {
        let email = account.email
        let password = try PasswordPrompt.read(for: email)
        try AccountArguments.perform(on: account.location) { store throws(SessionError) in
            let hashing = BoundedExecutor(
                name: "password-hashing", limits: ExecutorLimits(threads: 1, queueLimit: 1))
            defer { hashing.close() }
            try await SessionService(
                store: store, configuration: ServiceConfiguration(), hashing: hashing
            ).setPassword(password, email: email)
        }
        Console.output("Password set for \(email).")
    }
}
