import MyNotesService
import Storage

/// `mynotes-server accounts set-password EMAIL`: sets the password the REST API's
/// sign-in checks, for an account made by `accounts add` (or to change one).
struct AccountsSetPasswordCommand: ServerCommand {
    static let path = ["accounts", "set-password"]
    static let help = """
        USAGE: mynotes-server accounts set-password EMAIL [--database sqlite:PATH]

        Sets the account's password (at least 8 characters). On a terminal it is asked
        for twice without echo; otherwise the first line of standard input is the password.
        Existing tokens stay valid.

        OPTIONS:
        \(DatabaseOption.help)
          -h, --help              Show this help.
        """

    let email: String
    let location: StoreLocation

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, options: [DatabaseOption.name], flags: [])
        email = try parsed.single("EMAIL")
        location = try DatabaseOption.location(parsed, environment: environment)
    }

    func run() throws(CommandFailure) {
        let password = try PasswordPrompt.read(for: email)
        let store = try DatabaseOption.open(location)
        defer { store.close() }
        do {
            try SessionService(store: store, configuration: ServiceConfiguration())
                .setPassword(password, email: email)
        } catch {
            throw CommandFailure(error.description)
        }
        Console.output("Password set for \(email).")
    }
}
