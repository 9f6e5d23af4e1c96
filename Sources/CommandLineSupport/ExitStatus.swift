/// The statuses a program built on ``CommandLineProgram`` exits with.
///
/// ```swift
/// exit(ExitStatus.usage.rawValue)  // 2
/// ```
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// The command was understood, ran and failed: the server refused, a file was unreadable.
    case failure = 1
    /// The command line was wrong: nothing ran.
    case usage = 2
}
