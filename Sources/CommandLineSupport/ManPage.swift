/// A program's manual page in roff (`man 7 man-pages` layout), generated from what its
/// commands declare: every command with its usage, discussion and options, the
/// debugging switches included, and the exit statuses every program built here shares.
///
/// ```swift
/// print(ManPage(program: program).render())   // mynotes help --man | man -l -
/// ```
public struct ManPage: Sendable {
    public let program: CommandLineProgram

    public init(program: CommandLineProgram) {
        self.program = program
    }

    public func render() -> String {
        let name = program.name
        let root = program.root
        var page =
            ".TH \(name.uppercased()) 1 \"\" \"\(name) \(program.version)\" \"User Commands\"\n"
        // "mynotes: your notes…" would read "mynotes - mynotes: your notes…".
        var summary = Self.oneLine(root.abstract)
        if summary.hasPrefix(name + ": ") { summary.removeFirst(name.count + 2) }
        page += ".SH NAME\n\(Self.escaped(name)) \\- \(Self.escaped(summary))\n"
        page +=
            ".SH SYNOPSIS\n.B \(Self.escaped(name))\n.I COMMAND\n[\\fIARGUMENTS\\fR] [\\fIoptions\\fR]\n"
        page += ".SH DESCRIPTION\n\(Self.paragraphs(root.abstract))"
        if !root.discussion.isEmpty { page += ".PP\n\(Self.paragraphs(root.discussion))" }
        page += ".SH COMMANDS\n"
        page += commands(root, path: [])
        page += ".SS \(Self.escaped("\(name) help [COMMAND]"))\n"
        page += "The help of a command; \\fBhelp \\-\\-man\\fR prints this page.\n"
        page += ".SS \(Self.escaped("\(name) version"))\n"
        page += "Prints the version (also \\fB\\-\\-version\\fR).\n"
        page += ".SS \(Self.escaped("\(name) completion bash|zsh|fish"))\n"
        page += "Prints a completion script for the shell, e.g.\n"
        page += ".B source <(\(Self.escaped(name)) completion bash)\n"
        page += ".SH EXIT STATUS\n"
        page += ".TP\n0\nSuccess, also for \\fB\\-\\-help\\fR and \\fB\\-\\-version\\fR.\n"
        page += ".TP\n1\nThe command ran and failed.\n"
        page += ".TP\n2\nA usage error: nothing ran.\n"
        page += ".SH ENVIRONMENT\n"
        page += ".TP\nNO_COLOR\nWhen set and not empty, no colour even on a terminal.\n"
        return page
    }

    private func commands(_ group: CommandGroup, path: [String]) -> String {
        let formatter = HelpFormatter(program: program.name)
        var text = ""
        for node in group.subcommands {
            switch node {
            case .group(let nested):
                text += commands(nested, path: path + [nested.name])
            case .command(let type):
                let configuration = type.configuration
                let isDefault = group.defaultCommand.map { $0 == type } ?? false
                let usage = formatter.usage(
                    of: configuration, path: path + [configuration.name], isDefault: isDefault)
                text += ".SS \(Self.escaped(usage))\n\(Self.paragraphs(configuration.abstract))"
                if !configuration.discussion.isEmpty {
                    text += ".PP\n\(Self.paragraphs(configuration.discussion))"
                }
                for option in configuration.options {
                    let debugging = option.section == .debugging ? " (testing and debugging)" : ""
                    text += ".TP\n.B \(Self.escaped(option.synopsis))\n"
                    text += Self.escaped(option.help + debugging) + "\n"
                }
            }
        }
        return text
    }

    /// Lines joined into one, for the NAME section.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Text as roff lines: escaped, and no line starting with a control character.
    private static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                let escaped = Self.escaped(String(line))
                return escaped.first == "." || escaped.first == "'" ? "\\&" + escaped : escaped
            }
            .joined(separator: "\n") + "\n"
    }

    /// roff's special characters: backslashes and hyphens (which would otherwise break
    /// or turn into a typographic dash, spoiling copied options).
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            default: result.append(character)
            }
        }
        return result.first == "." || result.first == "'" ? "\\&" + result : result
    }
}
