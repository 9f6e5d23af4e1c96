import CommandLineSupport
import Foundation

/// Shows how far an import is: a bar redrawn in place on a terminal, a plain line
/// every tenth otherwise (logs and pipes get no control characters).
final class ImportProgress: @unchecked Sendable {
    // `completed` and `lastShown` are guarded by `lock`: uploads finish concurrently.
    private let lock = NSLock()
    private let total: Int
    private let context: CommandContext
    private let terminal: Bool
    private var completed: Int
    private var lastShown = -1

    init(total: Int, alreadyDone: Int, context: CommandContext) {
        self.total = total
        self.completed = alreadyDone
        self.context = context
        terminal = context.standardErrorIsTerminal
    }

    func advance() {
        let line: String? = lock.withLock {
            completed += 1
            let percent = total == 0 ? 100 : completed * 100 / total
            if terminal {
                guard percent != lastShown || completed == total else { return nil }
                lastShown = percent
                let filled = percent * 30 / 100
                let bar =
                    String(repeating: "█", count: filled)
                    + String(repeating: "░", count: 30 - filled)
                return "\r\(bar) \(completed)/\(total) \(percent)%"
                    + (completed == total ? "\n" : "")
            }
            let tenth = percent / 10
            guard tenth != lastShown else { return nil }
            lastShown = tenth
            return "Imported \(completed) of \(total) notes (\(percent)%)\n"
        }
        if let line { context.writeError(line) }
    }

    /// Ends a bar that stopped short, so that the next message starts on its own line.
    func interrupt() {
        if terminal { context.writeError("\n") }
    }
}
