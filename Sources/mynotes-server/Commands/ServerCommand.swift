/// One command of `mynotes-server`: parsed from its arguments, validated, then run.
protocol ServerCommand: Sendable {
    /// The words that select the command, e.g. `["accounts", "add"]`.
    static var path: [String] { get }
    /// The `--help` text.
    static var help: String { get }

    init(arguments: [String], environment: [String: String]) throws(UsageError)
    /// Checks values that parse but make no sense, before anything runs.
    func validate() throws(UsageError)
    func run() throws(CommandFailure)
}

extension ServerCommand {
    func validate() throws(UsageError) {}
}
