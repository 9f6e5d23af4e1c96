/// What a command line asks for, once ``CommandLineProgram/parse(_:environment:)`` has read it.
public enum Invocation: Sendable {
    /// Help was asked for (`--help`, `-h`, `help CMD`): print it, exit 0.
    case help(String)
    /// A group was named without a command: print its help on standard error, exit 2.
    case missingCommand(help: String)
    /// `--version` or `version`: print `PROGRAM VERSION`, exit 0.
    case version(String)
    /// Generated text asked for (`help --man`, `completion SHELL`): print it, exit 0.
    case output(String)
    /// A usage error, with the hint line that names the help to read; exit 2.
    case usageError(UsageError, hint: String)
    /// A command parsed and validated, ready to run.
    case run(any Command)
}
