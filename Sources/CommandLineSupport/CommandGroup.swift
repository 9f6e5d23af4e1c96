/// Commands selected by a word, with an optional default: the root of a program, or a
/// group within it such as `accounts`.
///
/// ```swift
/// let accounts = CommandGroup(
///     name: "accounts", abstract: "Manage accounts.",
///     subcommands: [.command(AccountsAddCommand.self), .command(AccountsListCommand.self)])
/// ```
public struct CommandGroup: Sendable {
    public var name: String
    public var abstract: String
    /// Shown after the list of commands.
    public var discussion: String
    public var subcommands: [CommandNode]
    /// Run when the arguments start with an option rather than a command word.
    public var defaultCommand: (any Command.Type)?

    public init(
        name: String, abstract: String, discussion: String = "", subcommands: [CommandNode],
        defaultCommand: (any Command.Type)? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.subcommands = subcommands
        self.defaultCommand = defaultCommand
    }

    func subcommand(named word: String) -> CommandNode? {
        subcommands.first { $0.name == word }
    }
}
