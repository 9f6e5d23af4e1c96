/// What a command declares about itself: its name, its help, its arguments and options.
/// The help text, the usage line and the parser's checks are all generated from it.
///
/// ```swift
/// static let configuration = CommandConfiguration(
///     name: "add", abstract: "Create an account.",
///     arguments: [ArgumentSpec("EMAIL")], options: [.value("--database", "URL", "The store.")])
/// ```
public struct CommandConfiguration: Sendable {
    /// The word that selects the command.
    public var name: String
    /// One line, for the overview and at the top of the command's help.
    public var abstract: String
    /// A few sentences after the usage line; may be empty.
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]

    public init(
        name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
    }
}
