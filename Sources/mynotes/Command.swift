/// One `mynotes` subcommand: parsed from its arguments, validated, then run.
protocol Command: Sendable {
    /// The word that selects the command, e.g. `list`.
    static var name: String { get }
    /// One line for the overview.
    static var summary: String { get }
    /// The positional part of the usage line, e.g. `ID TEXT`.
    static var arguments: String { get }
    /// What the command does, in a few sentences, after the usage line.
    static var discussion: String { get }
    /// The options it takes.
    static var options: [OptionSpec] { get }

    init(parsing arguments: ParsedArguments) throws(UsageError)

    /// Checks everything that can be checked without the network or the disk.
    func validate() throws(UsageError)

    func run(in context: CommandContext) async throws(CommandFailure)
}

extension Command {
    static var discussion: String { "" }

    func validate() throws(UsageError) {}

    /// The usage line.
    static var usage: String {
        "mynotes \(name)\(arguments.isEmpty ? "" : " " + arguments)\(options.isEmpty ? "" : " [options]")"
    }

    /// The full `--help` text.
    static var help: String {
        var text = "\(summary)\n\nUsage: \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let all = options + [OptionSpec.flag("--help", "Show this help.")]
        let width = all.map(\.synopsis.count).max() ?? 0
        text += "\nOptions:\n"
        for option in all {
            let padding = String(repeating: " ", count: width - option.synopsis.count)
            text += "  \(option.synopsis)\(padding)  \(option.help)\n"
        }
        return text
    }
}
