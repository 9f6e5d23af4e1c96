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

    /// The argument as the usage line shows it.
    public var synopsis: String {
        count == .oneOrMore ? name + "..." : name
    }
}
