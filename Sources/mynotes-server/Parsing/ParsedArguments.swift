/// A command's arguments split into options with values, flags and positionals,
/// checked against the names the command declares.
struct ParsedArguments {
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    private(set) var wantsHelp = false

    /// - Parameters:
    ///   - options: option names that take a value (`--port 8080` or `--port=8080`).
    ///   - flags: option names that take none.
    init(_ arguments: [String], options: Set<String>, flags: Set<String>) throws(UsageError) {
        var index = arguments.startIndex
        var onlyPositionals = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            let name: String
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            if flags.contains(name) {
                guard inlineValue == nil else {
                    throw UsageError("option '\(name)' takes no value")
                }
                self.flags.insert(name)
            } else if options.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < arguments.endIndex {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    throw UsageError("option '\(name)' needs a value")
                }
            } else {
                throw UsageError("unknown option '\(name)'")
            }
        }
    }

    /// An integer option within `range`, or `nil` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        return try Self.integer(text, named: name, in: range)
    }

    static func integer(
        _ text: String, named name: String, in range: ClosedRange<Int>
    ) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "invalid value '\(text)' for '\(name)': expected a whole number from "
                    + "\(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The single positional argument a command takes.
    func single(_ what: String) throws(UsageError) -> String {
        guard positionals.count == 1 else {
            if positionals.isEmpty { throw UsageError("missing \(what)") }
            throw UsageError("unexpected argument '\(positionals[1])'")
        }
        return positionals[0]
    }
}
