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
    /// Options that may also come before the command word (`mynotes --server URL list`):
    /// they are handed to the command, which declares them too. Of the root group only.
    public var leadingOptions: [OptionSpec]

    public init(
        name: String, abstract: String, discussion: String = "", subcommands: [CommandNode],
        defaultCommand: (any Command.Type)? = nil, leadingOptions: [OptionSpec] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.subcommands = subcommands
        self.defaultCommand = defaultCommand
        self.leadingOptions = leadingOptions
    }

    /// `--server URL list …` as `list --server URL …`: the leading options move after
    /// the command word, where the command's parser reads them.
    func movingLeadingOptions(_ arguments: [String]) -> [String] {
        var rest = arguments[...]
        var leading: [String] = []
        while let first = rest.first, first.hasPrefix("-") {
            let name = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
            guard let option = leadingOptions.first(where: { $0.isNamed(name) }) else { break }
            let count = first.contains("=") || option.kind == .flag ? 1 : min(2, rest.count)
            leading += rest.prefix(count)
            rest = rest.dropFirst(count)
        }
        guard let word = rest.first else { return leading + rest }
        return [word] + leading + rest.dropFirst()
    }

    func subcommand(named word: String) -> CommandNode? {
        subcommands.first { $0.name == word }
    }
}
