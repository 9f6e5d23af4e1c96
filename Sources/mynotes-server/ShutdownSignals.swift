import Dispatch
import Foundation

/// Waits for SIGINT or SIGTERM, the signals that ask for a graceful stop.
enum ShutdownSignals {
    static func wait() {
        let received = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "mynotes.signals")
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            // Ignored first, so the default action does not kill us before the source sees it.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { received.signal() }
            source.resume()
            sources.append(source)
        }
        received.wait()
        for source in sources { source.cancel() }
    }
}
