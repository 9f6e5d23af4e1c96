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
///
/// The handler is installed with `sigaction` at once, before the ready line, with no
/// moment when the signal is ignored (a dispatch source, used before, installed its
/// handler asynchronously while the signal was set to be ignored, and lost 1 Ctrl-C in 40). A
/// program started with SIGINT ignored (`&` in a non-interactive shell) or blocked still
/// gets them: the handler replaces the disposition, and this thread unblocks them.
final class ShutdownSignals: Sendable {
    /// The pipe's write end, for the handler, which can capture nothing.
    private nonisolated(unsafe) static var writeEnd: Int32 = -1
    private let readEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("cannot create a pipe for signals") }
        readEnd = ends[0]
        Self.writeEnd = ends[1]
        var signals = sigset_t()
        sigemptyset(&signals)
        for signalNumber in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(ShutdownSignals.writeEnd, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
            sigaddset(&signals, signalNumber)
        }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
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
