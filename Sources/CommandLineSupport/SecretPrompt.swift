import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads secrets (passwords, tokens): on a terminal after a prompt with echo off; from a
/// pipe or a file, the next line (without its line ending), so scripts can pass them.
///
/// Any other input, or a terminal whose echo cannot be turned off, is a failure rather
/// than a secret read in the clear.
///
/// ```swift
/// let password = try SecretPrompt().newPassword(for: "ann@example.com")
/// ```
public struct SecretPrompt: Sendable {
    /// The file descriptor secrets are read from; the prompt goes to standard error.
    public var input: Int32

    public init(input: Int32 = STDIN_FILENO) {
        self.input = input
    }

    /// Where a secret comes from, decided by what the input is.
    private enum Source {
        case terminal(termios)
        case lines
    }

    private func source(naming secret: String) throws(CommandFailure) -> Source {
        var settings = termios()
        if tcgetattr(input, &settings) == 0 { return .terminal(settings) }
        let reason = String(cString: strerror(errno))
        var status = stat()
        let type = fstat(input, &status) == 0 ? status.st_mode & S_IFMT : 0
        if [S_IFIFO, S_IFREG, S_IFSOCK].contains(type) { return .lines }
        throw CommandFailure(
            "cannot ask for the \(secret) without echo: standard input is not a terminal, "
                + "a pipe or a file (\(reason))")
    }

    /// One secret after `prompt`, or `nil` at the end of the input. `secret` names it in
    /// errors ("password", "token").
    public func readSecret(prompt: String, naming secret: String) throws(CommandFailure) -> String?
    {
        switch try source(naming: secret) {
        case .lines: return readLine()
        case .terminal(let settings): return try readSilently(prompt: prompt, settings)
        }
    }

    /// An answer that is no secret (an email), shown as it is typed: on a terminal after
    /// `prompt`; otherwise the next line. `nil` at the end of the input.
    public func answer(prompt: String) throws(CommandFailure) -> String? {
        if case .terminal = try source(naming: "answer") {
            FileHandle.standardError.write(Data(prompt.utf8))
        }
        return readLine()
    }

    /// The account's password, asked once on a terminal.
    public func password(for account: String) throws(CommandFailure) -> String {
        let source = try self.source(naming: "password")
        let line: String?
        switch source {
        case .lines: line = readLine()
        case .terminal(let settings):
            line = try readSilently(prompt: "Password for \(account): ", settings)
        }
        guard let line else { throw Self.noPassword(source) }
        return line
    }

    /// A new password: on a terminal asked twice, and refused unless both agree.
    public func newPassword(for account: String) throws(CommandFailure) -> String {
        let source = try self.source(naming: "password")
        guard case .terminal(let settings) = source else {
            guard let line = readLine() else { throw Self.noPassword(source) }
            return line
        }
        guard let first = try readSilently(prompt: "New password for \(account): ", settings),
            let second = try readSilently(prompt: "Repeat the password: ", settings)
        else { throw Self.noPassword(source) }
        guard first == second else { throw CommandFailure("the passwords do not match") }
        return first
    }

    private static func noPassword(_ source: Source) -> CommandFailure {
        if case .lines = source { return CommandFailure("no password on standard input") }
        return CommandFailure("no password was entered")
    }

    /// One line from the terminal with echo off (the Return still shows), the settings
    /// restored even when reading fails.
    ///
    /// Echo goes off, dropping what was typed before, and only then does the prompt show:
    /// an answer typed as soon as the prompt appears is never discarded.
    private func readSilently(prompt: String, _ settings: termios) throws(CommandFailure)
        -> String?
    {
        var silent = settings
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        guard tcsetattr(input, TCSAFLUSH, &silent) == 0 else {
            throw CommandFailure("cannot turn off echo: \(String(cString: strerror(errno)))")
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        let line = readLine()
        var saved = settings
        if tcsetattr(input, TCSANOW, &saved) != 0 {
            FileHandle.standardError.write(Data("warning: could not turn echo back on\n".utf8))
        }
        return line
    }

    /// The next line of the input, read a byte at a time so nothing after it is
    /// consumed; `nil` at the end. A carriage return before the line feed is dropped.
    private func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(input, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                if bytes.isEmpty { return nil }
                break
            }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
