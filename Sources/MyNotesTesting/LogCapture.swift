import Locking
import ServerLogging

/// Keeps every line a logger writes, for tests to read back.
///
/// ```swift
/// let capture = LogCapture()
/// let logger = Logger(sink: capture.sink, format: .json)
/// logger.info("hello")
/// #expect(capture.lines.count == 1)
/// ```
public final class LogCapture: Sendable {
    private let storage = Lock<[String]>([])

    public init() {}

    /// Every line written so far, oldest first.
    public var lines: [String] { storage.withLock { $0 } }

    /// The lines joined, to search for a text anywhere in the log.
    public var text: String { lines.joined(separator: "\n") }

    public var sink: LogSink { LogSink { line in self.storage.withLock { $0.append(line) } } }
}
