import Foundation
import MyNotesProtocol

/// What a command may use of the outside world: the environment, the standard streams.
struct CommandContext: Sendable {
    var environment: [String: String]

    /// The language of messages, from `LC_ALL`, `LC_MESSAGES` or `LANG`, in POSIX order.
    var language: MessageLanguage {
        let identifier = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty }
        return MessageLanguage(localeIdentifier: identifier)
    }

    func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether standard error is a terminal, where a progress bar can redraw itself.
    var standardErrorIsTerminal: Bool { isatty(2) == 1 }

    var standardInputIsTerminal: Bool { isatty(0) == 1 }

    /// The width to fit table rows into: the terminal's, else `COLUMNS`, else no limit.
    var outputWidth: Int? {
        if isatty(1) == 1 {
            var size = winsize()
            if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return nil
    }

    /// One line of standard input; on a terminal, after a prompt and without echo,
    /// because it is a secret.
    func readSecretLine(prompt: String) -> String {
        guard standardInputIsTerminal else { return readLine(strippingNewline: true) ?? "" }
        writeError(prompt)
        var original = termios()
        tcgetattr(0, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSANOW, &silent)
        defer {
            tcsetattr(0, TCSANOW, &original)
            writeError("\n")
        }
        return readLine(strippingNewline: true) ?? ""
    }

    /// A new password: on a terminal asked twice without echo, and refused unless both
    /// agree; otherwise the first line of standard input.
    func readNewPassword(for email: String) throws(CommandFailure) -> String {
        guard standardInputIsTerminal else { return Self.withoutCR(readSecretLine(prompt: "")) }
        let first = readSecretLine(prompt: "New password for \(email): ")
        let second = readSecretLine(prompt: "Repeat the password: ")
        guard first == second else { throw .message("the passwords do not match") }
        return first
    }

    /// A password, asked without echo on a terminal, else the first line of standard input.
    func readPassword(for email: String) -> String {
        Self.withoutCR(readSecretLine(prompt: "Password for \(email): "))
    }

    private static func withoutCR(_ line: String) -> String {
        line.hasSuffix("\r") ? String(line.dropLast()) : line
    }

    /// All of standard input, as UTF-8 text.
    func readStandardInput() -> String {
        String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }
}
