/// A command line that cannot run as written: printed as `PROGRAM: message` with a hint
/// line naming the command's help, exit status 2.
///
/// ```swift
/// guard !host.isEmpty else { throw UsageError("option '--host' must not be empty") }
/// ```
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
