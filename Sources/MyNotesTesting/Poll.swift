import Foundation

/// Checks a condition that no event announces (a file's contents, another process's
/// state) every few milliseconds, up to a time limit, and fails clearly past it.
///
/// ```swift
/// try Poll.until("500 lines in the journal") { lines(in: journal) >= 500 }
/// ```
public enum Poll {
    /// How long to wait between checks: short next to any limit a test sets.
    public static let interval = Duration.milliseconds(2)

    /// Returns once `condition` holds; throws ``WaitTimeout`` after `timeout`.
    public static func until(
        _ awaited: String, timeout: Duration = .seconds(10), _ condition: () throws -> Bool
    ) throws {
        let deadline = ContinuousClock.now + timeout
        while try !condition() {
            guard ContinuousClock.now < deadline else { throw WaitTimeout(awaited, limit: timeout) }
            Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18)
        }
    }

    /// The same for a condition that must await (a request), checked every `every`: a
    /// probe that opens a connection is spaced wider than ``interval``.
    public static func until(
        _ awaited: String, timeout: Duration = .seconds(10), every: Duration = interval,
        _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw WaitTimeout(awaited, limit: timeout) }
            try await Task.sleep(for: every)
        }
    }
}
