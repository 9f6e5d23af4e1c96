import BoundedExecution
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs an action on each SIGHUP: reopen the access log after logrotate moved it, and
/// reload the TLS certificate after it was renewed. As ``ShutdownSignals``, the handler
/// writes a byte to a pipe and a thread of its own reads it and runs the action there.
final class ReloadSignal: Sendable {
    private nonisolated(unsafe) static var writeEnd: Int32 = -1
    private let ends: (read: Int32, write: Int32)

    init(_ action: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("cannot create a pipe for SIGHUP") }
        self.ends = (ends[0], ends[1])
        Self.writeEnd = ends[1]
        let readEnd = ends[0]
        let thread = Thread.named("sighup") {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0, errno == EINTR { continue }
                // 0 is the stop byte; end of file, the pipe closed.
                guard count == 1, byte == 1 else { return }
                action()
            }
        }
        thread.start()
        signal(SIGHUP) { _ in
            var byte: UInt8 = 1
            _ = write(ReloadSignal.writeEnd, &byte, 1)
        }
    }

    /// Ignores SIGHUP from now on and ends the thread.
    func stop() {
        signal(SIGHUP, SIG_IGN)
        var byte: UInt8 = 0
        _ = write(ends.write, &byte, 1)
    }
}
