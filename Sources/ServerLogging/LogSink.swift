import Foundation
import Locking

/// Where log lines go: standard error, or a closure (tests collect lines with it).
/// Lines from many threads never interleave: each is written whole, under a lock.
///
/// ```swift
/// let lines = Lock<[String]>([])
/// let sink = LogSink { line in lines.withLock { $0.append(line) } }
/// ```
public final class LogSink: Sendable {
    private let write: Lock<@Sendable (String) -> Void>

    /// A sink that hands each finished line (without its newline) to `write`.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = Lock(write)
    }

    /// Standard error, a line at a time.
    public static let standardError = LogSink { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    func emit(_ line: String) {
        write.withLock { $0(line) }
    }
}
