/// A command that was understood but failed while running: printed as one line,
/// `PROGRAM: message`, exit status 1.
///
/// ```swift
/// guard let data = FileManager.default.contents(atPath: path) else {
///     throw CommandFailure("cannot read \(path)")
/// }
/// ```
public struct CommandFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// Already worded for people, in their language where the program knows it.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
