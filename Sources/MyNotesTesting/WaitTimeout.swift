/// A test waited for something that did not happen within its time limit.
///
/// ```swift
/// try requests.wait(for: 1, timeout: .seconds(10))  // throws WaitTimeout("1 request(s) …")
/// ```
public struct WaitTimeout: Error, CustomStringConvertible {
    /// What the test was waiting for, in words.
    public let awaited: String
    public let limit: Duration

    public init(_ awaited: String, limit: Duration) {
        self.awaited = awaited
        self.limit = limit
    }

    public var description: String { "waited \(limit) for \(awaited), in vain" }
}
