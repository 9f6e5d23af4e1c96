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

    /// All of standard input, as UTF-8 text.
    public func readStandardInput() -> String {
        String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }
}
