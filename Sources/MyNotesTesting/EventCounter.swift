/// Counts an event that happens on another thread (a request arrived, a handler
/// started), so a test can wait for it instead of sleeping and hoping.
///
/// ```swift
/// let received = EventCounter("request received")
/// // the peer's thread: received.signal()
/// try await received.wait(for: 1)       // throws WaitTimeout after 10 s
/// ```
public final class EventCounter: Sendable {
    private let name: String
    private let count = Observed(0)

    public init(_ name: String) {
        self.name = name
    }

    /// How many times the event has happened.
    public var value: Int { count.read { $0 } }

    /// Records one occurrence.
    public func signal() {
        count.update { $0 += 1 }
    }

    /// Suspends until the event has happened `times` times in all.
    public func wait(for times: Int = 1, timeout: Duration = .seconds(10)) async throws {
        try await count.wait("\(name) ×\(times)", timeout: timeout) { $0 >= times }
    }

    /// Blocks until the event has happened `times` times in all.
    public func waitBlocking(for times: Int = 1, timeout: Duration = .seconds(10)) throws {
        try count.waitBlocking("\(name) ×\(times)", timeout: timeout) { $0 >= times }
    }
}
