/// A shell completion script for a program, generated from what its commands declare:
/// command words (nested groups too), each command's options, the values of `a|b|c`
/// options, and file names where an argument or a value is a file.
///
/// ```swift
/// print(CompletionScript(program: program).render(for: .bash))
/// // then, in a shell: source <(mynotes completion bash)
/// ```
public struct CompletionScript: Sendable {
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// One place in the command tree: a group (its words) or a command (its options).
    struct Node {
        /// The command words that lead here, e.g. `["accounts", "add"]`.
        var path: [String]
        /// The words that may come next: subcommands of a group.
        var words: [(name: String, abstract: String)]
        var options: [OptionSpec]
        /// Whether a positional argument is a file.
        var takesFiles: Bool
    }

    public let program: CommandLineProgram

    public init(program: CommandLineProgram) {
        self.program = program
    }

    public func render(for shell: Shell) -> String {
        switch shell {
        case .bash: return bash()
        case .zsh: return zsh()
        case .fish: return fish()
        }
    }

    /// Every group and command, the root first; the root also offers the built-in
    /// commands, and the options of its default command.
    var nodes: [Node] {
        var nodes: [Node] = []
        func visit(_ group: CommandGroup, path: [String]) {
            var words = group.subcommands.map { node -> (String, String) in
                switch node {
                case .command(let type):
                    return (type.configuration.name, type.configuration.abstract)
                case .group(let nested): return (nested.name, nested.abstract)
                }
            }
            if path.isEmpty {
                words += [
                    ("help", "Show the help of a command."), ("version", "Print the version."),
                    ("completion", "Print a shell completion script."),
                ]
            }
            let defaultOptions =
                (group.defaultCommand?.configuration.options ?? []) + group.leadingOptions
            nodes.append(Node(path: path, words: words, options: defaultOptions, takesFiles: false))
            for node in group.subcommands {
                switch node {
                case .group(let nested): visit(nested, path: path + [nested.name])
                case .command(let type):
                    let configuration = type.configuration
                    let files = configuration.arguments.contains {
                        $0.name.contains("FILE") || $0.name.contains("PATH")
                    }
                    nodes.append(
                        Node(
                            path: path + [configuration.name], words: [],
                            options: configuration.options, takesFiles: files))
                }
            }
        }
        visit(program.root, path: [])
        nodes.append(
            Node(
                path: ["help"], words: nodes[0].words.filter { $0.name != "help" }, options: [],
                takesFiles: false))
        nodes.append(
            Node(
                path: ["completion"], words: Shell.allCases.map { ($0.rawValue, "") }, options: [],
                takesFiles: false))
        return nodes
    }

    /// A shell function name from the program's: `_mynotes_server`.
    var functionName: String {
        "_" + String(program.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// Words quoted for a shell's single quotes.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private func bash() -> String {
        let nodes = self.nodes
        var steps: [String] = []
        for node in nodes where !node.words.isEmpty && node.path != ["help"] {
            let key = node.path.joined(separator: " ")
            for word in node.words {
                steps.append(Self.quoted("\(key):\(word.name)"))
            }
        }
        var values: [String] = []
        var lists: [String] = []
        for node in nodes {
            let key = node.path.joined(separator: " ")
            for option in node.options {
                guard case .value = option.kind else { continue }
                let names = [option.name] + (option.short.map { [$0] } ?? [])
                let patterns = names.map { Self.quoted("\(key):\($0)") }.joined(separator: "|")
                let action =
                    !option.choices.isEmpty
                    ? "COMPREPLY=($(compgen -W \(Self.quoted(option.choices.joined(separator: " "))) -- \"$cur\"))"
                    : option.takesPath ? "COMPREPLY=($(compgen -f -- \"$cur\"))" : "COMPREPLY=()"
                values.append("        \(patterns)) \(action); return ;;")
            }
            var options = node.options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
            options.append("--help")
            if node.path.isEmpty { options.append("--version") }
            let words = node.words.map(\.name).joined(separator: " ")
            lists.append(
                "        \(Self.quoted(key))) words=\(Self.quoted(words)); options=\(Self.quoted(options.joined(separator: " "))); files=\(node.takesFiles ? 1 : 0) ;;"
            )
        }
        let function = functionName
        return """
            # bash completion for \(program.name), generated by '\(program.name) completion bash'.
            # Use: source <(\(program.name) completion bash), or save it in
            # ~/.local/share/bash-completion/completions/\(program.name)
            \(function)() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="" word i words options files
                ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD-1]}"
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word="${COMP_WORDS[i]}"
                    case "$path:$word" in
                    \(steps.joined(separator: "|")))
                        path="${path:+$path }$word" ;;
                    esac
                done
                case "$path:$prev" in
            \(values.joined(separator: "\n"))
                esac
                case "$path" in
            \(lists.joined(separator: "\n"))
                    *) words=""; options=""; files=1 ;;
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                elif [[ -n "$words" ]]; then
                    COMPREPLY=($(compgen -W "$words" -- "$cur"))
                elif ((files)); then
                    COMPREPLY=($(compgen -f -- "$cur"))
                else
                    COMPREPLY=()
                fi
            }
            complete -F \(function) \(program.name)

            """
    }

    /// zsh runs the bash function through its `bashcompinit` layer.
    private func zsh() -> String {
        """
        #compdef \(program.name)
        # zsh completion for \(program.name), generated by '\(program.name) completion zsh'.
        # Use: source <(\(program.name) completion zsh) in ~/.zshrc, after compinit.
        autoload -U +X bashcompinit && bashcompinit

        """
            + bash().split(separator: "\n", omittingEmptySubsequences: false).drop {
                $0.hasPrefix("#")
            }.joined(separator: "\n")
    }
}
