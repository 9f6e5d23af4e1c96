import Dispatch
import Foundation

/// Catches SIGINT and SIGTERM, the signals that ask for a graceful stop.
///
/// Created before the server announces itself, so that a signal sent the moment
/// the ready line appears is caught rather than lost or fatal.
final class ShutdownSignals {
    private let received = DispatchSemaphore(value: 0)
    private var sources: [any DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "mynotes.signals")

    init() {
        for signalNumber in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [received] in received.signal() }
            source.resume()
            sources.append(source)
            // Ignored only once the source watches it: the default action would end
            // the process before the source could see the signal.
            signal(signalNumber, SIG_IGN)
        }
    }

    /// Returns once one of the signals has arrived. The waiting happens on a thread of
    /// its own, so that no thread of Swift's cooperative pool is held for the server's life.
    func wait() async {
        await withCheckedContinuation { continuation in
            Thread { [received] in
                received.wait()
                continuation.resume()
            }.start()
        }
        for source in sources { source.cancel() }
    }
}
