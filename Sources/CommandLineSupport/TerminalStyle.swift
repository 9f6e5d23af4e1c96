import Foundation

/// Colour and weight for text written to a terminal, and nothing elsewhere: off when
/// the stream is not a terminal, when `NO_COLOR` is set (https://no-color.org) or when
/// `TERM` is `dumb`.
///
/// ```swift
/// let style = TerminalStyle(for: STDERR_FILENO, environment: context.environment)
/// context.printError(style.apply(.error, to: "mynotes:") + " no server")
/// ```
public struct TerminalStyle: Sendable, Equatable {
    public enum Role: Sendable {
        /// The program's name before an error.
        case error
        /// A table's heading, a field's name.
        case heading
    }

    public var isEnabled: Bool

    public init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    /// Decided by what `descriptor` is and the environment.
    public init(for descriptor: Int32, environment: [String: String]) {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        isEnabled = isatty(descriptor) == 1 && !noColor && environment["TERM"] != "dumb"
    }

    /// `text` in the role's colour, or as it is when colour is off.
    public func apply(_ role: Role, to text: String) -> String {
        guard isEnabled else { return text }
        let code =
            switch role {
            case .error: "1;31"
            case .heading: "1"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
