import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Catches SIGINT and SIGTERM, the signals that ask for a graceful stop.
///
/// Created before the server announces itself, so that a signal sent the moment
/// the ready line appears is caught rather than lost or fatal.
///
/// A plain handler writes a byte to a pipe, and a thread of its own waits on the pipe.
/// The handler runs on whichever thread the kernel picks, so this works whatever signal
/// masks the threads have: the program's main thread runs Swift's main executor and
/// would otherwise receive, and drop, a signal that a dispatch source expects elsewhere.
final class ShutdownSignals: Sendable {
    /// The pipe's write end, for the handler, which can capture nothing.
    private nonisolated(unsafe) static var writeEnd: Int32 = -1
    private let readEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("cannot create a pipe for signals") }
        readEnd = ends[0]
        Self.writeEnd = ends[1]
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { _ in
                var byte: UInt8 = 1
                _ = write(ShutdownSignals.writeEnd, &byte, 1)
            }
        }
    }

    /// Returns once one of the signals has arrived. The waiting happens on a thread of
    /// its own, so that no thread of Swift's cooperative pool is held for the server's life.
    func wait() async {
        let readEnd = self.readEnd
        await withCheckedContinuation { continuation in
            Thread {
                var byte: UInt8 = 0
                while read(readEnd, &byte, 1) < 0, errno == EINTR {}
                continuation.resume()
            }.start()
        }
    }
}
