/// Writes the help of commands and groups from what they declare, in one layout.
struct HelpFormatter {
    let program: String

    /// The words naming a command, with a default command's name in brackets.
    private func words(_ path: [String], defaultLast: Bool) -> String {
        var shown = [program] + path
        if defaultLast, let last = shown.popLast() { shown.append("[\(last)]") }
        return shown.joined(separator: " ")
    }

    /// The usage line of a command.
    func usage(of configuration: CommandConfiguration, path: [String], isDefault: Bool) -> String {
        var line = words(path, defaultLast: isDefault)
        for argument in configuration.arguments { line += " " + argument.synopsis }
        if !configuration.options.isEmpty { line += " [options]" }
        return line
    }

    /// The help of a command: what it does, its usage line, the discussion, the options.
    func help(for type: any Command.Type, path: [String], isDefault: Bool) -> String {
        let configuration = type.configuration
        var text = "\(configuration.abstract)\n\n"
        text += "Usage: \(usage(of: configuration, path: path, isDefault: isDefault))\n"
        if !configuration.discussion.isEmpty { text += "\n\(configuration.discussion)\n" }
        let all = configuration.options + [.flag("--help", "Show this help.")]
        // Options first, then the named sections in the order declared, debugging last.
        var headings: [OptionSpec.Section] = [.main]
        for option in all where !headings.contains(option.section) && option.section != .debugging {
            headings.append(option.section)
        }
        if all.contains(where: { $0.section == .debugging }) { headings.append(.debugging) }
        for section in headings {
            let options = all.filter { $0.section == section }
            switch section {
            case .main:
                text += "\nOptions:\n" + table(options.map { ($0.synopsis, $0.help) })
            case .named(let heading):
                text += "\n\(heading) options:\n" + table(options.map { ($0.synopsis, $0.help) })
            case .debugging:
                let names = options.map(\.name).joined(separator: ", ")
                text += "\nFor testing and debugging: \(names) (see '\(program) help --man').\n"
            }
        }
        return text
    }

    /// The help of a group: what it is for, its usage line, every command in it (those
    /// of nested groups by their full names), the discussion.
    func help(for group: CommandGroup, path: [String]) -> String {
        var rows = Self.rows(group, prefix: [])
        if path.isEmpty {
            rows.append(("version", "Print the version (also --version)."))
            rows.append(
                ("help", "Show the help of a command: help COMMAND (help --man: the manual)."))
            rows.append(
                ("completion", "Print a shell completion script: completion bash|zsh|fish."))
        }
        let named = path.isEmpty ? program : words(path, defaultLast: false)
        var text = "\(group.abstract)\n\nUsage: \(named) COMMAND [ARGUMENTS] [options]\n\n"
        text += "Commands:\n" + table(rows) + "\n"
        if !group.discussion.isEmpty { text += group.discussion + "\n" }
        let helpPath = ([program, "help"] + path + ["COMMAND"]).joined(separator: " ")
        text += "Run '\(helpPath)' for a command's options.\n"
        return text
    }

    private static func rows(_ group: CommandGroup, prefix: [String]) -> [(String, String)] {
        group.subcommands.flatMap { node -> [(String, String)] in
            switch node {
            case .group(let nested):
                return rows(nested, prefix: prefix + [nested.name])
            case .command(let type):
                let configuration = type.configuration
                let name = (prefix + [configuration.name]).joined(separator: " ")
                let isDefault = group.defaultCommand.map { $0 == type } ?? false
                return [(name, configuration.abstract + (isDefault ? " The default command." : ""))]
            }
        }
    }

    /// Two columns, the second aligned.
    private func table(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { name, help in
            "  " + name + String(repeating: " ", count: width - name.count) + "  " + help + "\n"
        }.joined()
    }
}
