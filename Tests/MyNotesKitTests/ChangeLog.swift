import Foundation
import MyNotesKit
import MyNotesTesting

/// What a loop over a change stream (or a replica's events) received, for a test to
/// wait on: each arrival is counted as it comes.
final class ChangeLog<Entry: Sendable>: @unchecked Sendable {
    let arrivals = EventCounter("an entry in the change log")
    // Guarded by `lock`: the loop's task appends, the test reads.
    private let lock = NSLock()
    private var entries: [Entry] = []

    func append(_ entry: Entry) {
        lock.withLock { entries.append(entry) }
        arrivals.signal()
    }

    var all: [Entry] { lock.withLock { entries } }

    /// Waits until `count` entries in all have come.
    func wait(for count: Int, timeout: Duration = .seconds(20)) async throws {
        try await arrivals.wait(for: count, timeout: timeout)
    }
}
