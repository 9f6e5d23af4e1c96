/// One positional argument a command declares. The parser refuses a missing one
/// (`missing EMAIL`) and one too many (`unexpected argument 'x'`), and the usage line
/// shows them in order.
///
/// ```swift
/// static let configuration = CommandConfiguration(
///     name: "search", abstract: "Find notes.", arguments: [.repeating("WORDS")])
/// ```
public struct ArgumentSpec: Sendable, Equatable {
    public enum Count: Sendable, Equatable {
        /// Exactly one.
        case one
        /// One or more: only the last argument may repeat.
        case oneOrMore
        /// None or one: only arguments at the end may be optional.
        case optional
    }

    public var name: String
    public var count: Count

    public init(_ name: String, count: Count = .one) {
        self.name = name
        self.count = count
    }

    /// One or more values, e.g. `WORDS...`.
    public static func repeating(_ name: String) -> ArgumentSpec {
        ArgumentSpec(name, count: .oneOrMore)
    }

    /// An argument that may be left out, e.g. `[TEXT]`.
    public static func optional(_ name: String) -> ArgumentSpec {
        ArgumentSpec(name, count: .optional)
    }

    /// The argument as the usage line shows it.
    public var synopsis: String {
        switch count {
        case .one: return name
        case .oneOrMore: return name + "..."
        case .optional: return "[\(name)]"
        }
    }
}
