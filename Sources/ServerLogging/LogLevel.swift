/// How much a log line matters. A logger writes the lines at or above its level.
///
/// ```swift
/// var logger = Logger(sink: .standardError, format: .text)
/// logger.level = .debug
/// ```
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case trace, debug, info, notice, warning, error, critical

    /// The lower-case name used in log lines and on the command line (`--log-level`).
    public var description: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }

    /// The level with that name, as `--log-level` takes it.
    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.description == name }) else {
            return nil
        }
        self = level
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
