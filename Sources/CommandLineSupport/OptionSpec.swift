/// One option a command declares: a flag, or a name that takes a value; optionally a
/// one-letter short name. Declaring it is what makes the parser accept it and the
/// help list it.
///
/// ```swift
/// static let options: [OptionSpec] = [
///     .value("--port", "P", "The port.", short: "-p"),
///     .flag("--no-signup", "Refuse new accounts."),
/// ]
/// ```
public struct OptionSpec: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case flag
        case value(placeholder: String)
    }

    /// Where the help lists an option.
    public enum Section: Sendable, Equatable, Hashable {
        /// Under "Options:".
        case main
        /// Under a heading of their own, e.g. "Connection options:".
        case named(String)
        /// Switches for testing and debugging: named in one line of the help, described
        /// in the manual page.
        case debugging
    }

    /// The long name, with its dashes: `--port`. Values are looked up by it.
    public var name: String
    /// The short name, with its dash: `-p`.
    public var short: String?
    public var kind: Kind
    public var help: String
    public var section: Section

    public init(
        name: String, short: String? = nil, kind: Kind, help: String, section: Section = .main
    ) {
        self.name = name
        self.short = short
        self.kind = kind
        self.help = help
        self.section = section
    }

    /// The same option, listed in `section`.
    public func listed(in section: Section) -> OptionSpec {
        var option = self
        option.section = section
        return option
    }

    /// The values a `a|b|c` placeholder allows; empty for free values and flags.
    public var choices: [String] {
        guard case .value(let placeholder) = kind, placeholder.contains("|") else { return [] }
        return placeholder.split(separator: "|").map(String.init)
    }

    /// Whether the value names a file (its placeholder says FILE or PATH).
    public var takesPath: Bool {
        guard case .value(let placeholder) = kind else { return false }
        return placeholder.contains("FILE") || placeholder.contains("PATH")
    }

    /// An option that takes a value: `--name VALUE`, `--name=VALUE`, `-n VALUE`, `-n=VALUE`.
    public static func value(
        _ name: String, _ placeholder: String, _ help: String, short: String? = nil
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, kind: .value(placeholder: placeholder), help: help)
    }

    /// An option that takes no value.
    public static func flag(_ name: String, _ help: String, short: String? = nil) -> OptionSpec {
        OptionSpec(name: name, short: short, kind: .flag, help: help)
    }

    /// The option as the help shows it: `-p, --port P`.
    public var synopsis: String {
        let names = short.map { "\($0), \(name)" } ?? name
        switch kind {
        case .flag: return names
        case .value(let placeholder): return names + " " + placeholder
        }
    }

    /// Whether `written` (as typed, before any `=`) names this option.
    func isNamed(_ written: String) -> Bool {
        written == name || written == short
    }
}
