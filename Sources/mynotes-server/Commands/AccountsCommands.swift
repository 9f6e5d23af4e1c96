import MyNotesService
import Storage

/// `mynotes-server accounts add EMAIL`: creates an account, prints its token last.
struct AccountsAddCommand: ServerCommand {
    static let path = ["accounts", "add"]
    static let help = """
        USAGE: mynotes-server accounts add EMAIL [--database sqlite:PATH]

        Creates an account and prints its access token alone on the last line.
        The token is shown only now; the server keeps only its hash.

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
        let store = try DatabaseOption.open(location)
        defer { store.close() }
        let (account, token) = try accountOperation {
            () throws(AccountError) in try AccountService(store: store).create(email: email)
        }
        Console.output("Created account \(account.email). Its access token:")
        Console.output(token)
    }
}

/// `mynotes-server accounts list`.
struct AccountsListCommand: ServerCommand {
    static let path = ["accounts", "list"]
    static let help = """
        USAGE: mynotes-server accounts list [--database sqlite:PATH]

        Lists the accounts, one a line: email, then when it was created.

        OPTIONS:
        \(DatabaseOption.help)
          -h, --help              Show this help.
        """

    let location: StoreLocation

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, options: [DatabaseOption.name], flags: [])
        if let extra = parsed.positionals.first {
            throw UsageError("unexpected argument '\(extra)'")
        }
        location = try DatabaseOption.location(parsed, environment: environment)
    }

    func run() throws(CommandFailure) {
        let store = try DatabaseOption.open(location)
        defer { store.close() }
        let accounts = try accountOperation {
            () throws(AccountError) in try AccountService(store: store).all()
        }
        for account in accounts {
            Console.output("\(account.email)\t\(RFC3339.string(milliseconds: account.createdAt))")
        }
    }
}

/// `mynotes-server accounts remove EMAIL`: removes the account and its notes.
struct AccountsRemoveCommand: ServerCommand {
    static let path = ["accounts", "remove"]
    static let help = """
        USAGE: mynotes-server accounts remove EMAIL [--database sqlite:PATH]

        Removes the account and all of its notes.

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
        let store = try DatabaseOption.open(location)
        defer { store.close() }
        try accountOperation { () throws(AccountError) in
            try AccountService(store: store).remove(email: email)
        }
        Console.output("Removed account \(email) and its notes.")
    }
}

/// `mynotes-server accounts reset-token EMAIL`: issues a new token, voiding the old.
struct AccountsResetTokenCommand: ServerCommand {
    static let path = ["accounts", "reset-token"]
    static let help = """
        USAGE: mynotes-server accounts reset-token EMAIL [--database sqlite:PATH]

        Revokes every token of the account (REST sessions included) and issues a new one,
        printed alone on the last line.

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
        let store = try DatabaseOption.open(location)
        defer { store.close() }
        let token = try accountOperation {
            () throws(AccountError) in try AccountService(store: store).resetToken(email: email)
        }
        Console.output("New access token for \(email):")
        Console.output(token)
    }
}

/// Runs an account operation, reporting its failure as the command's.
private func accountOperation<Value>(
    _ body: () throws(AccountError) -> Value
) throws(CommandFailure) -> Value {
    do {
        return try body()
    } catch {
        throw CommandFailure(error.description)
    }
}
