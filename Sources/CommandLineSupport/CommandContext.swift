import Foundation

/// What a command may use of the outside world: the environment and the standard
/// streams. Each line is written at once, so a process reading the output sees a ready
/// line as soon as it is printed.
///
/// ```swift
/// context.print("Created account \(email).")
/// context.printError("warning: the quota is off")
/// ```
public struct CommandContext: Sendable {
    public var environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// `text` and a line ending on standard output.
    public func print(_ text: String) {
        write(text + "\n")
    }

    /// `text` as it is on standard output.
    public func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// `text` and a line ending on standard error.
    public func printError(_ text: String) {
        writeError(text + "\n")
    }

    /// `text` as it is on standard error.
    public func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether standard error is a terminal, where a progress line can redraw itself.
    public var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether standard output is a terminal, where text from elsewhere is escaped.
    public var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether standard input is a terminal, where a person types.
    public var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Colour for standard output.
    public var outputStyle: TerminalStyle {
        TerminalStyle(for: STDOUT_FILENO, environment: environment)
    }

    /// Colour for standard error.
    public var errorStyle: TerminalStyle {
        TerminalStyle(for: STDERR_FILENO, environment: environment)
    }

    /// Text from elsewhere (a note, an email, a server's message) as standard output
    /// shows it: escaped on a terminal, exactly as it is in a pipe or a file.
    public func shown(_ text: String, keeping kept: TerminalText.Kept = .none) -> String {
        standardOutputIsTerminal ? TerminalText.escaped(text, keeping: kept) : text
    }

    /// All of standard input, as UTF-8 text.
    public func readStandardInput() -> String {
        String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Standard input as a value typed or piped in: without the one line ending that
    /// ends the last line (as `$(…)` in a shell drops it), so `echo x |` gives `x`; a
    /// second line ending keeps one. On a terminal, `prompt` on standard error first.
    public func readStandardInputValue(prompt: String) -> String {
        if standardInputIsTerminal { writeError(prompt + "\n") }
        var text = readStandardInput()
        // "\r\n" is one Character: either way the last one goes.
        if text.last == "\n" || text.last == "\r\n" { text.removeLast() }
        return text
    }
}
