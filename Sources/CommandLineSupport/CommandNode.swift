/// An entry of a ``CommandGroup``: a command, or a group of its own (`accounts add`).
public enum CommandNode: Sendable {
    case command(any Command.Type)
    case group(CommandGroup)

    /// The word that selects it.
    public var name: String {
        switch self {
        case .command(let type): return type.configuration.name
        case .group(let group): return group.name
        }
    }
}
