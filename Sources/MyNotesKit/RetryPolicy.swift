import Foundation

/// When and how often a failed `query` is tried again; writes are never retried,
/// because the client cannot know whether a write that failed in transit was applied.
///
/// ```swift
/// var configuration = NotesClient.Configuration(server: url, credentials: credentials)
/// configuration.retry = RetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(100))
/// configuration.retry = .never
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included; `1` means no retry.
    public var maxAttempts: Int
    /// The wait before the second attempt.
    public var initialDelay: Duration
    /// The factor each further wait grows by.
    public var multiplier: Double
    /// The longest wait.
    public var maxDelay: Duration

    /// Creates a policy: `RetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(100))`.
    ///
    /// `maxAttempts` below 1 counts as 1.
    public init(
        maxAttempts: Int, initialDelay: Duration = .milliseconds(200), multiplier: Double = 2,
        maxDelay: Duration = .seconds(5)
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
    }

    /// Three attempts, waiting 0.2 s then 0.4 s.
    public static let `default` = RetryPolicy(maxAttempts: 3)

    /// One attempt only.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The wait after failed attempt number `attempt` (1-based).
    public func delay(afterAttempt attempt: Int) -> Duration {
        let factor = pow(multiplier, Double(max(0, attempt - 1)))
        let delay = initialDelay * factor
        return delay > maxDelay ? maxDelay : delay
    }

    /// Whether an error is worth another attempt: failures of the network or of the
    /// server's store, a 5xx or 429, not answers about the request itself and not a
    /// cancellation. A `Retry-After` longer than ``maxDelay`` ends the retries.
    public static func isTransient(_ error: NotesClientError) -> Bool {
        switch error {
        case .transport, .timedOut: return true
        case .http(let status, _): return status >= 500 || status == 429
        case .server(let code, _): return code == .dataAccessFailed
        case .rest(.tooManyRequests): return true
        case .rest(let reason): return reason.problem.status >= 500
        case .cancelled, .invalidResponse, .invalidConfiguration: return false
        }
    }
}
