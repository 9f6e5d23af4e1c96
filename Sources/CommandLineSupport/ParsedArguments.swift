/// A command line split by a command's ``CommandConfiguration``: option values, flags
/// and positional arguments, with the environment the program runs in.
///
/// Accepts `--name value`, `--name=value`, `-n value`, `-n=value`, flags, `--` to end
/// options, and `-` as a positional argument (by convention standard input). A repeated
/// option keeps its last value.
///
/// ```swift
/// let parsed = try ParsedArguments(["--port=0", "x"], for: configuration)
/// parsed.value("--port")  // "0"
/// ```
public struct ParsedArguments: Sendable {
    /// Values by the option's long name.
    private var values: [String: String] = [:]
    /// Flags given, by long name.
    private var flags: Set<String> = []
    /// The positional arguments in order, as ``argument(_:)`` and ``arguments(_:)`` read them.
    public private(set) var positionals: [String] = []
    public let environment: [String: String]
    private let declared: [ArgumentSpec]

    public init(
        _ arguments: [String], for configuration: CommandConfiguration,
        environment: [String: String] = [:]
    ) throws(UsageError) {
        self.environment = environment
        declared = configuration.arguments
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = Self.split(argument)
            guard let spec = configuration.options.first(where: { $0.isNamed(name) }) else {
                throw UsageError("unknown option '\(name)'")
            }
            switch spec.kind {
            case .flag:
                guard inlineValue == nil else {
                    throw UsageError("option '\(name)' takes no value")
                }
                flags.insert(spec.name)
            case .value:
                if let inlineValue {
                    values[spec.name] = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError("option '\(name)' needs a value")
                    }
                    values[spec.name] = arguments[index]
                    index += 1
                }
            }
        }
        try checkCount()
    }

    /// `--name=value` and `-n=value` into name and value; anything else is a name alone.
    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private func checkCount() throws(UsageError) {
        for (position, spec) in declared.enumerated()
        where position >= positionals.count && spec.count != .optional {
            throw UsageError("missing \(spec.name)")
        }
        if declared.last?.count != .oneOrMore, positionals.count > declared.count {
            throw UsageError("unexpected argument '\(positionals[declared.count])'")
        }
    }

    /// The value of a declared positional argument, by its name; for a repeating one,
    /// its first value.
    public func argument(_ name: String) -> String {
        arguments(name)[0]
    }

    /// The values of a declared positional argument: one, all of a repeating one, or
    /// none of an optional one left out.
    public func arguments(_ name: String) -> [String] {
        guard let position = declared.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("argument \(name) is not declared")
        }
        guard position < positionals.count else { return [] }
        if declared[position].count == .oneOrMore { return Array(positionals[position...]) }
        return [positionals[position]]
    }

    /// The value of a declared optional argument; `nil` when it was left out.
    public func optionalArgument(_ name: String) -> String? {
        arguments(name).first
    }

    /// The value of an option, by its long name; `nil` when it was not given.
    public func value(_ name: String) -> String? {
        values[name]
    }

    /// Whether a flag was given, by its long name.
    public func has(_ flag: String) -> Bool {
        flags.contains(flag)
    }

    /// The value of an option whose values are the raw values of `Choice`.
    public func choice<Choice: RawRepresentable & CaseIterable>(
        _ name: String, as type: Choice.Type
    ) throws(UsageError) -> Choice? where Choice.RawValue == String {
        guard let text = values[name] else { return nil }
        guard let choice = Choice(rawValue: text) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: "|")
            throw UsageError("option '\(name)' must be one of \(allowed), not '\(text)'")
        }
        return choice
    }

    /// An integer option within `range`; `nil` when it was not given.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        return try Self.integer(text, named: name, in: range)
    }

    /// `text` as an integer within `range`, or a usage error naming the option `name`;
    /// for values that may also come from elsewhere, such as the environment.
    public static func integer(
        _ text: String, named name: String, in range: ClosedRange<Int>
    ) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "option '\(name)' must be a whole number from \(range.lowerBound) to "
                    + "\(range.upperBound), not '\(text)'")
        }
        return value
    }
}
