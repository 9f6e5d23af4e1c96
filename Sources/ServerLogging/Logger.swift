/// A small structured logger: a level, metadata that every line carries (a request's
/// ID, say), and a sink. A value type, so a request adds its own metadata to a copy
/// without touching anyone else's.
///
/// Never give it a secret (token, password, cookie, `Authorization`): metadata whose
/// key names one is written as `[redacted]` as a last line of defence, but messages
/// are written as they are.
///
/// ```swift
/// var logger = Logger(sink: .standardError, format: .text, level: .info)
/// logger[metadataKey: "request_id"] = "3f2a9c1b-1"
/// logger.error("store failed", ["cause": "disk I/O error (SQLITE_IOERR_WRITE, 778)"])
/// ```
public struct Logger: Sendable {
    /// Lines below this level are not written (and their message is not built).
    public var level: LogLevel
    public private(set) var metadata: [(key: String, value: String)]
    let sink: LogSink?
    let format: LogFormat

    public init(sink: LogSink, format: LogFormat = .text, level: LogLevel = .info) {
        self.sink = sink
        self.format = format
        self.level = level
        self.metadata = []
    }

    /// A logger that writes nothing: the default of a request context.
    public static let disabled = Logger()

    private init() {
        sink = nil
        format = .text
        level = .critical
        metadata = []
    }

    /// A metadata value every line of this logger carries; `nil` removes it.
    public subscript(metadataKey key: String) -> String? {
        get { metadata.last { $0.key == key }?.value }
        set {
            metadata.removeAll { $0.key == key }
            if let newValue { metadata.append((key, newValue)) }
        }
    }

    /// Whether a line at `level` would be written.
    public func isEnabled(_ level: LogLevel) -> Bool {
        sink != nil && level >= self.level
    }

    public func log(
        _ level: LogLevel, _ message: @autoclosure () -> String,
        _ details: KeyValuePairs<String, String> = [:]
    ) {
        guard let sink, level >= self.level else { return }
        let record = LogRecord(
            time: .now, level: level, message: message(),
            metadata: metadata + details.map { ($0.key, $0.value) })
        sink.emit(record.line(format))
    }

    public func debug(
        _ message: @autoclosure () -> String, _ details: KeyValuePairs<String, String> = [:]
    ) {
        log(.debug, message(), details)
    }

    public func info(
        _ message: @autoclosure () -> String, _ details: KeyValuePairs<String, String> = [:]
    ) {
        log(.info, message(), details)
    }

    public func notice(
        _ message: @autoclosure () -> String, _ details: KeyValuePairs<String, String> = [:]
    ) {
        log(.notice, message(), details)
    }

    public func warning(
        _ message: @autoclosure () -> String, _ details: KeyValuePairs<String, String> = [:]
    ) {
        log(.warning, message(), details)
    }

    public func error(
        _ message: @autoclosure () -> String, _ details: KeyValuePairs<String, String> = [:]
    ) {
        log(.error, message(), details)
    }
}
