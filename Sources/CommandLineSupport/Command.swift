/// One command of a program: declared by its ``configuration``, built from the parsed
/// arguments, checked by ``validate()``, then run.
///
/// ```swift
/// struct GreetCommand: Command {
///     static let configuration = CommandConfiguration(
///         name: "greet", abstract: "Say hello.", arguments: [ArgumentSpec("NAME")])
///     var name: String
///     init(parsing arguments: ParsedArguments) throws(UsageError) {
///         name = arguments.argument("NAME")
///     }
///     func run(in context: CommandContext) throws(CommandFailure) {
///         context.print("Hello, \(name)!")
///     }
/// }
/// ```
public protocol Command: Sendable {
    static var configuration: CommandConfiguration { get }

    /// Reads the declared arguments and options; any value that cannot be read is a
    /// usage error.
    init(parsing arguments: ParsedArguments) throws(UsageError)

    /// Checks what parses but makes no sense, before anything runs.
    func validate() throws(UsageError)

    func run(in context: CommandContext) async throws(CommandFailure)
}

extension Command {
    public func validate() throws(UsageError) {}
}
