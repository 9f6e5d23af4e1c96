import Synchronization

/// Whether the service is draining: set at the start of a graceful shutdown, so that
/// `/readyz` answers 503 (and a load balancer stops sending) before the server stops
/// accepting connections.
///
/// ```swift
/// let drain = DrainState()
/// drain.begin()
/// drain.isDraining  // true
/// ```
public final class DrainState: Sendable {
    private let draining = Atomic<Bool>(false)

    public init() {}

    public func begin() { draining.store(true, ordering: .releasing) }

    public var isDraining: Bool { draining.load(ordering: .acquiring) }
}
