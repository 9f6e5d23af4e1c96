/// One option a command accepts.
struct OptionSpec {
    enum Kind {
        case flag
        case value(placeholder: String)
    }

    var name: String
    var kind: Kind
    var help: String

    static func value(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .value(placeholder: placeholder), help: help)
    }

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, help: help)
    }

    /// The option as the help text shows it.
    var synopsis: String {
        switch kind {
        case .flag: return name
        case .value(let placeholder): return name + " " + placeholder
        }
    }
}
