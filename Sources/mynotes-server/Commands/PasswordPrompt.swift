import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a new password: from a terminal, asked twice with echo off (termios); from
/// a pipe or file, the first line as it is (without its line ending).
enum PasswordPrompt {
    static func read(for email: String) throws(CommandFailure) -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = Swift.readLine(strippingNewline: true) else {
                throw CommandFailure("no password on standard input")
            }
            return line.hasSuffix("\r") ? String(line.dropLast()) : line
        }
        let first = try silentLine("New password for \(email): ")
        let second = try silentLine("Repeat the password: ")
        guard first == second else { throw CommandFailure("the passwords do not match") }
        return first
    }

    /// One line from the terminal with echo off, restored even when reading fails.
    private static func silentLine(_ prompt: String) throws(CommandFailure) -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else {
            throw CommandFailure(
                "cannot read the terminal settings: \(String(cString: strerror(errno)))")
        }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent) == 0 else {
            throw CommandFailure("cannot turn off echo: \(String(cString: strerror(errno)))")
        }
        let line = Swift.readLine(strippingNewline: true)
        if tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) != 0 {
            FileHandle.standardError.write(Data("warning: could not restore echo\n".utf8))
        }
        guard let line else { throw CommandFailure("no password was entered") }
        return line
    }
}
