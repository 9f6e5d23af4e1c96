/// A command line split into options and positional arguments by a command's ``OptionSpec``s.
///
/// Accepts `--name value`, `--name=value`, flags, `--` to end options, and `-` as a
/// positional argument (it means standard input). A repeated option keeps the last value.
struct ParsedArguments {
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    /// Whether `--help` or `-h` was given anywhere before `--`.
    private(set) var wantsHelp = false

    init(_ arguments: [String], options: [OptionSpec]) throws(UsageError) {
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
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            let (name, inlineValue) = Self.split(argument)
            guard let spec = options.first(where: { $0.name == name }) else {
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
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
            return (argument, nil)
        }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    func value(_ name: String) -> String? {
        values[name]
    }

    /// The value of an option whose values are the raw values of `Choice`.
    func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, as type: Choice.Type)
        throws(UsageError) -> Choice? where Choice.RawValue == String
    {
        guard let text = values[name] else { return nil }
        guard let choice = Choice(rawValue: text) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: "|")
            throw UsageError("option '\(name)' must be one of \(allowed), not '\(text)'")
        }
        return choice
    }

    func has(_ flag: String) -> Bool {
        flags.contains(flag)
    }
}
