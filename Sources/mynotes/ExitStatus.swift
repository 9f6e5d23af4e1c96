/// The statuses `mynotes` exits with.
enum ExitStatus: Int32 {
    case success = 0
    /// The command ran and failed: the server refused, the network failed, a file was unreadable.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
}
