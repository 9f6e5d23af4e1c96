import BoundedExecution
import Dispatch
import Foundation
import Locking
import ServerLogging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Writes access-log lines on a thread of its own. A request only appends its entry
/// to a bounded buffer (a short lock, no I/O); when the buffer is full the entry is
/// dropped and counted (``droppedEntries``) rather than making the request wait for a
/// slow disk.
///
/// ```swift
/// let log = try AccessLogWriter(destination: .file(path: "/var/log/example/access.log"))
/// router.add(middleware: AccessLogMiddleware(writer: log))
/// // on SIGHUP, after logrotate moved the file:
/// log.reopen()
/// ```
public final class AccessLogWriter: Sendable {
    private struct State {
        var entries: [AccessLogEntry] = []
        var closed = false
        var reopenRequested = false
    }

    public let destination: AccessLogDestination
    public let format: LogFormat
    /// Entries that may wait for the writer; one more is dropped.
    public let capacity: Int
    private let state = Lock(State())
    private let dropped = Atomic<Int>(0)
    private let written = Atomic<Int>(0)
    private let descriptor: Lock<Int32>
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Opens the destination (creating the file); fails with the reason when it cannot.
    public init(
        destination: AccessLogDestination, format: LogFormat = .text, capacity: Int = 16_384
    ) throws(AccessLogError) {
        self.destination = destination
        self.format = format
        self.capacity = max(1, capacity)
        descriptor = Lock(try Self.open(destination))
        let thread = Thread.named("access-log") { [self] in
            // Woken by the loops' requests: it writes when they pause, not between them.
            ThreadScheduling.throughput.applyToCurrentThread()
            run()
            finished.signal()
        }
        thread.start()
    }

    /// Queues `entry`; drops it (and counts it) when the buffer is full.
    public func record(_ entry: AccessLogEntry) {
        let wasEmpty = state.withLock { state -> Bool? in
            guard !state.closed, state.entries.count < capacity else { return nil }
            state.entries.append(entry)
            return state.entries.count == 1
        }
        switch wasEmpty {
        case nil: dropped.add(1, ordering: .relaxed)
        case true?: wakeUp.signal()
        case false?: break
        }
    }

    /// Entries dropped because the buffer was full.
    public var droppedEntries: Int { dropped.load(ordering: .relaxed) }
    /// Entries written so far.
    public var writtenEntries: Int { written.load(ordering: .relaxed) }

    /// Closes and opens the file again (after logrotate renamed it), on the writer thread
    /// before its next write.
    public func reopen() {
        state.withLock { $0.reopenRequested = true }
        wakeUp.signal()
    }

    /// Writes what is queued, then stops the thread and closes the file. The thread holds
    /// the writer until then: every writer must be closed.
    public func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        wakeUp.signal()
        finished.wait()
    }

    private func run() {
        var bytes: [UInt8] = []
        var time = AccessLogTimestamp()
        while true {
            wakeUp.wait()
            let (entries, closed, reopen) = state.withLock { state in
                defer {
                    state.entries.removeAll(keepingCapacity: true)
                    state.reopenRequested = false
                }
                return (state.entries, state.closed, state.reopenRequested)
            }
            if reopen, case .file = destination, let fresh = try? Self.open(destination) {
                let old = descriptor.withLock { descriptor in
                    defer { descriptor = fresh }
                    return descriptor
                }
                Glibc.close(old)
            }
            if !entries.isEmpty {
                bytes.removeAll(keepingCapacity: true)
                for entry in entries {
                    if format == .json {
                        entry.appendJSON(to: &bytes, time: &time)
                    } else {
                        entry.appendCombined(to: &bytes, time: &time)
                    }
                    bytes.append(UInt8(ascii: "\n"))
                }
                let target = descriptor.withLock { $0 }
                Self.writeAll(bytes, to: target)
                written.add(entries.count, ordering: .relaxed)
            }
            // Entries come in batches: a request that finds the buffer empty wakes this
            // thread (a futex call), one that finds it filling pays an append only. Napping
            // after a write lets a batch gather under load, instead of a wake-up and a
            // write(2) per request (measured: 11 µs of CPU per request at 15,000 a second
            // without the nap).
            if !entries.isEmpty, !closed { usleep(Self.batchInterval) }
            if closed {
                let target = descriptor.withLock { $0 }
                if case .file = destination { Glibc.close(target) }
                return
            }
        }
    }

    /// How long the writer lets entries gather after a write, in microseconds: the most a
    /// line waits before it is written under load.
    static let batchInterval: UInt32 = 10_000

    private static func open(_ destination: AccessLogDestination) throws(AccessLogError) -> Int32 {
        switch destination {
        case .standardOutput: return STDOUT_FILENO
        case .file(let path):
            let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
            guard descriptor >= 0 else {
                throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
            return descriptor
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                offset += count
            }
        }
    }
}

/// Why an ``AccessLogWriter`` could not start.
public enum AccessLogError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open access log \(path): \(reason)"
        }
    }
}
